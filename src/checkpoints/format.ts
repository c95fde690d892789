import type { FilesRewound, RewindTurn } from "./checkpoints.js";

/** The list `/rewind` and `hx rewind --list` print. */
export function formatRewindTurns(turns: readonly RewindTurn[]): string {
  if (turns.length === 0) return "Nothing to rewind yet: no user turn in this session.";
  const lines = turns.map(
    (turn) =>
      `${String(turn.turn).padStart(3)}. ${turn.prompt}${turn.changingCalls ? `  (${turn.changingCalls} call${turn.changingCalls === 1 ? "" : "s"} that may change files from here on)` : ""}`,
  );
  return lines.join("\n");
}

/** What a rewind of files did, in sentences: what came back, what was left, and why. */
export function formatFilesRewound(outcome: FilesRewound, turn: number): string {
  if (!outcome.checkpoint) return `Files: nothing to put back (no call changed files from turn ${turn} on).`;
  const lines: string[] = [];
  lines.push(
    outcome.restore.length
      ? `Files: put back as before turn ${turn}: ${outcome.restore.join(", ")}.`
      : `Files: none of hx's calls changed a file from turn ${turn} on; nothing put back.`,
  );
  if (outcome.alsoChangedOutside.length) {
    lines.push(
      `  Also changed outside hx since then, and put back all the same: ${outcome.alsoChangedOutside.join(", ")}.`,
    );
  }
  if (outcome.untouched.length) {
    lines.push(
      `  Changed only outside hx (you, an editor, another program), left as they are: ${outcome.untouched.join(", ")}.`,
    );
  }
  if (outcome.before && outcome.restore.length) {
    lines.push(
      `  The project as it was just before this rewind is checkpoint ${outcome.before.slice(0, 12)}.`,
    );
  }
  return lines.join("\n");
}
