/** At most this many lines of a running call's output are kept (the full text is in the transcript). */
export const KEPT_LINES = 400;

/**
 * The output of a running call, as it comes: its last lines (at most KEPT_LINES kept), the line
 * still being written, and how many lines came in all. Bounded whatever the call prints.
 */
export class LiveOutput {
  private lines: string[] = [];
  private partial = "";
  private total = 0;

  append(text: string): void {
    const parts = (this.partial + text).split("\n");
    this.partial = parts.pop() ?? "";
    this.total += parts.length;
    // Only the tail can be shown: older lines are counted, not kept.
    const keep = parts.length > KEPT_LINES ? parts.slice(-KEPT_LINES) : parts;
    this.lines.push(...keep);
    if (this.lines.length > KEPT_LINES) this.lines.splice(0, this.lines.length - KEPT_LINES);
  }

  /** The last `max` lines, and how many came before them. */
  tail(max: number): { lines: string[]; hidden: number } {
    const all = this.partial ? [...this.lines.slice(-max), this.partial] : this.lines;
    const lines = all.slice(-max);
    const count = this.total + (this.partial ? 1 : 0);
    return { lines, hidden: count - lines.length };
  }
}
