import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** One snapshot of the project, taken around a call that may change files. */
export interface CheckpointRecord {
  /** The user turn it belongs to, counted over the session's life (1 = the first prompt). */
  turn: number;
  /** `turn`: a new user prompt (no snapshot); `before`/`after`: around a call that may change files. */
  phase: "turn" | "before" | "after";
  /** The snapshot (`before`/`after`). */
  commit?: string;
  /** On `turn` records: the first words of the prompt, and a hash of all of it (to find it again). */
  prompt?: string;
  promptHash?: string;
  tool?: string;
  callId?: string;
  /** Files left out of the snapshot (too large). */
  skipped?: string[];
  at: string;
}

/** A session's checkpoints, as JSON lines beside the shadow repository (`sessions/<id>.jsonl`). */
export class CheckpointLog {
  constructor(readonly file: string) {}

  static forSession(checkpointsDir: string, sessionId: string): CheckpointLog {
    return new CheckpointLog(path.join(checkpointsDir, "sessions", `${sessionId}.jsonl`));
  }

  append(record: CheckpointRecord): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    appendFileSync(this.file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  read(): CheckpointRecord[] {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return [];
    }
    const records: CheckpointRecord[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as CheckpointRecord;
        if (typeof record.turn === "number" && typeof record.phase === "string") records.push(record);
      } catch {
        // A line cut short by a crash: the ones before it still count.
      }
    }
    return records;
  }
}
