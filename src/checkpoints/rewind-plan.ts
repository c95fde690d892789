import type { CheckpointRecord } from "./checkpoint-log.js";

/** Which files to put back, and which changed outside hx since the checkpoint. */
export interface RewindPlan {
  /** The snapshot to go back to; undefined when nothing was snapshotted since that turn. */
  checkpoint?: string;
  /** Files hx's own calls changed since the checkpoint: they are put back. */
  restore: string[];
  /** Of those, files also changed outside hx's calls (by you, an editor, another program). */
  alsoChangedOutside: string[];
  /** Files changed only outside hx's calls: left as they are. */
  untouched: string[];
}

/** A gap between two consecutive snapshots, and whether a call of hx was running in it. */
export interface SnapshotGap {
  from: string;
  to: string;
  byHx: boolean;
}

/**
 * The gaps from the first snapshot of `turn` (or later) to `now`. Changes in a gap during which
 * one of hx's calls ran (between a call's `before` and its `after`) are hx's; the others are
 * not (made between calls, or after the last one).
 */
export function gapsSince(
  records: readonly CheckpointRecord[],
  turn: number,
  now: string,
): { checkpoint?: string; gaps: SnapshotGap[] } {
  // The turn's latest start (a turn redone after a rewind starts again further down).
  let started = -1;
  for (const [i, record] of records.entries())
    if (record.phase === "turn" && record.turn === turn) started = i;
  const snapshots = records
    .slice(Math.max(started, 0))
    .filter((record) => record.commit && record.phase !== "turn");
  const start = snapshots.findIndex((record) => record.turn >= turn && record.phase === "before");
  if (start === -1) return { gaps: [] };
  const running = new Set<string>();
  const gaps: SnapshotGap[] = [];
  const from = snapshots.slice(start);
  for (const [i, record] of from.entries()) {
    if (record.phase === "before") running.add(record.callId ?? "");
    if (record.phase === "after") running.delete(record.callId ?? "");
    const next = from[i + 1]?.commit ?? now;
    gaps.push({ from: record.commit as string, to: next, byHx: running.size > 0 });
  }
  return { checkpoint: from[0].commit, gaps };
}

/** Turns each gap's changed files into the plan: hx's files are restored, the rest named. */
export function planFromGaps(
  checkpoint: string | undefined,
  changed: ReadonlyArray<{ byHx: boolean; files: readonly string[] }>,
): RewindPlan {
  if (!checkpoint) return { restore: [], alsoChangedOutside: [], untouched: [] };
  const byHx = new Set<string>();
  const outside = new Set<string>();
  for (const gap of changed) for (const file of gap.files) (gap.byHx ? byHx : outside).add(file);
  const sorted = (files: Iterable<string>) => [...files].sort();
  return {
    checkpoint,
    restore: sorted(byHx),
    alsoChangedOutside: sorted([...byHx].filter((file) => outside.has(file))),
    untouched: sorted([...outside].filter((file) => !byHx.has(file))),
  };
}
