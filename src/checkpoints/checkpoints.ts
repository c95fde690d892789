import { createHash } from "node:crypto";
import type { Message } from "../core/messages.js";
import type { CheckpointLog, CheckpointRecord } from "./checkpoint-log.js";
import { gapsSince, planFromGaps, type RewindPlan } from "./rewind-plan.js";
import type { ShadowGit } from "./shadow-git.js";

/** A user turn, as the rewind list shows it. */
export interface RewindTurn {
  turn: number;
  prompt: string;
  /** Calls that may have changed files from this turn on (0: rewinding files changes nothing). */
  changingCalls: number;
}

export interface FilesRewound extends RewindPlan {
  /** The project as it was just before the rewind (a rewind of the rewind goes back to it). */
  before?: string;
}

const PREVIEW = 80;

/** The prompts the user typed (not reminders, summaries or other messages hx adds), in order. */
function userPrompts(
  messages: readonly Message[],
): Array<{ index: number; message: Message & { role: "user" } }> {
  const prompts: Array<{ index: number; message: Message & { role: "user" } }> = [];
  for (const [index, message] of messages.entries()) {
    if (message.role === "user" && !message.meta?.kind) prompts.push({ index, message });
  }
  return prompts;
}

function promptPreview(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW - 1)}…` : line;
}

function promptHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/**
 * A session's checkpoints: snapshots of the project around each call that may change files
 * (and one line per user turn), and rewinding files and the conversation to before a turn.
 */
export class Checkpoints {
  private lastPrompt: Message | undefined;
  private turn: number;

  constructor(
    private readonly git: ShadowGit,
    readonly log: CheckpointLog,
  ) {
    this.turn = Math.max(0, ...log.read().map((record) => record.turn));
  }

  /**
   * The turn the conversation is in: a new one when its latest user prompt is not the one seen
   * last (a `turn` line records it).
   */
  currentTurn(messages: readonly Message[]): number {
    const latest = userPrompts(messages).at(-1)?.message;
    if (latest && latest !== this.lastPrompt) {
      this.lastPrompt = latest;
      this.turn += 1;
      this.log.append({
        turn: this.turn,
        phase: "turn",
        prompt: promptPreview(latest.content),
        promptHash: promptHash(latest.content),
        at: new Date().toISOString(),
      });
    }
    return Math.max(this.turn, 1);
  }

  /** The turn recorded last (1 before any). */
  lastTurn(): number {
    return Math.max(this.turn, 1);
  }

  async snapshot(entry: Pick<CheckpointRecord, "turn" | "phase" | "tool" | "callId">): Promise<void> {
    const snapshot = await this.git.snapshot(`turn ${entry.turn} ${entry.phase} ${entry.tool ?? ""}`.trim());
    this.log.append({
      ...entry,
      commit: snapshot.commit,
      ...(snapshot.skipped.length ? { skipped: snapshot.skipped } : {}),
      at: new Date().toISOString(),
    });
  }

  /** Every user turn of the session with how many changing calls came from it on. */
  turns(): RewindTurn[] {
    return turnsOf(this.log.read());
  }

  /** What a rewind of files to before `turn` would do, changing nothing. */
  async plan(turn: number): Promise<RewindPlan & { now: string }> {
    const now = (await this.git.snapshot("now")).commit;
    const { checkpoint, gaps } = gapsSince(this.log.read(), turn, now);
    const changed = await Promise.all(
      gaps.map(async (gap) => ({ byHx: gap.byHx, files: await this.git.changedBetween(gap.from, gap.to) })),
    );
    return { ...planFromGaps(checkpoint, changed), now };
  }

  /** Puts back the files hx changed since before `turn`; files changed only outside hx stay. */
  async rewindFiles(turn: number): Promise<FilesRewound> {
    const plan = await this.plan(turn);
    if (!plan.checkpoint || plan.restore.length === 0) return plan;
    const at = new Date().toISOString();
    this.log.append({
      turn: this.turn,
      phase: "before",
      callId: "rewind",
      tool: "rewind",
      commit: plan.now,
      at,
    });
    await this.git.restore(plan.checkpoint, plan.restore);
    await this.snapshot({ turn: this.turn, phase: "after", callId: "rewind", tool: "rewind" });
    return { ...plan, before: plan.now };
  }

  /** After the conversation went back to before `turn`: the next prompt is turn `turn` again. */
  conversationRewound(turn: number): void {
    this.turn = turn - 1;
    this.lastPrompt = undefined;
  }
}

/** The turns recorded in a log (the latest record of each number wins: a rewound turn is redone). */
function turnsOf(records: readonly CheckpointRecord[]): RewindTurn[] {
  const turns = new Map<number, RewindTurn>();
  for (const record of records) {
    if (record.phase === "turn")
      turns.set(record.turn, { turn: record.turn, prompt: record.prompt ?? "", changingCalls: 0 });
  }
  for (const turn of turns.values()) {
    turn.changingCalls = records.filter(
      (r) => r.turn >= turn.turn && r.phase === "before" && r.callId !== "rewind",
    ).length;
  }
  return [...turns.values()].sort((a, b) => a.turn - b.turn);
}

/**
 * The messages before user turn `turn`, found by the prompt recorded for it, or why the
 * conversation cannot go there.
 */
export function conversationBefore(
  messages: readonly Message[],
  records: readonly CheckpointRecord[],
  turn: number,
): { messages: Message[]; prompt: string } | { error: string } {
  const known = turnsOf(records).map((t) => t.turn);
  if (!Number.isInteger(turn) || turn < 1 || !known.includes(turn)) {
    const range =
      known.length === 0
        ? "no turns yet"
        : known.length === 1
          ? `turn ${known[0]}`
          : `turns ${known[0]}-${known.at(-1)}`;
    return { error: `turn ${turn} does not exist: this session has ${range}.` };
  }
  const record = [...records].reverse().find((r) => r.phase === "turn" && r.turn === turn);
  const prompts = userPrompts(messages);
  const match = prompts.filter((p) => promptHash(p.message.content) === record?.promptHash);
  if (match.length === 0) {
    return {
      error: `turn ${turn} is no longer in the conversation (compacted into a summary or cleared); only its files can be rewound.`,
    };
  }
  // The same prompt typed twice: the latest one at or before this turn's place.
  const sameBefore = records.filter(
    (r) => r.phase === "turn" && r.promptHash === record?.promptHash && r.turn <= turn,
  ).length;
  const target = match[Math.min(sameBefore, match.length) - 1] ?? match[0];
  return { messages: messages.slice(0, target.index), prompt: target.message.content };
}
