import { estimateTokens } from "../context/index.js";
import type { Message } from "../core/messages.js";
import type { TranscriptLine } from "../transcript/index.js";

/** One saved session's lines, in order. */
export interface SessionEvents {
  id: string;
  lines: readonly TranscriptLine[];
}

interface SkillUsage {
  name: string;
  /** `load_skill` results that carried the body. */
  loadsByModel: number;
  /** `/name` prompts that put the body in. */
  loadsByUser: number;
  /** Sessions that loaded it at least once. */
  sessions: number;
  /** Tokens of its body as last sent (estimated). */
  bodyTokens: number;
  /** Estimated input tokens its bodies took: each load's tokens × the requests that carried it. */
  inputTokens: number;
  /** inputTokens / every input token of the sessions read (0 when there were none). */
  inputShare: number;
  /** ISO time of the last load. */
  lastUsed: string;
}

export interface SkillUsageReport {
  sessions: number;
  /** Input tokens of every request in those sessions (as the providers reported them). */
  inputTokens: number;
  /** Most loaded first. */
  skills: SkillUsage[];
  /** Skills that exist now and no session loaded. */
  neverLoaded: string[];
}

/**
 * Skill usage from transcripts, read from message fields (`meta.skill` on a load_skill result,
 * `meta.skills` on a `/name` prompt), never from the text. A body stays in the context for the
 * requests after its load, so its cost is its tokens times those requests (an estimate: a
 * compaction re-injects bodies, so they stay counted until the session ends).
 */
export function skillUsage(
  sessions: readonly SessionEvents[],
  existing: readonly string[],
): SkillUsageReport {
  const usage = new Map<string, SkillUsage & { seenIn: Set<string> }>();
  let inputTokens = 0;
  for (const session of sessions) {
    const active: Array<{ name: string; tokens: number }> = [];
    for (const line of session.lines) {
      if (line.type === "usage") {
        inputTokens += line.usage.inputTokens;
        for (const load of active) entry(load.name).inputTokens += load.tokens;
        continue;
      }
      if (line.type !== "message") continue;
      for (const load of loadsIn(line.message)) {
        const record = entry(load.name);
        if (load.by === "model") record.loadsByModel += 1;
        else record.loadsByUser += 1;
        record.seenIn.add(session.id);
        // The body as last sent: the latest load by time, whatever order the sessions come in.
        if (line.at >= record.lastUsed) {
          record.lastUsed = line.at;
          record.bodyTokens = load.tokens;
        }
        active.push({ name: load.name, tokens: load.tokens });
      }
    }
  }
  const skills = [...usage.values()]
    .map(({ seenIn, ...rest }) => ({
      ...rest,
      sessions: seenIn.size,
      inputShare: inputTokens === 0 ? 0 : rest.inputTokens / inputTokens,
    }))
    .sort(
      (a, b) =>
        b.loadsByModel + b.loadsByUser - (a.loadsByModel + a.loadsByUser) || (a.name < b.name ? -1 : 1),
    );
  const loaded = new Set(skills.map((s) => s.name));
  return {
    sessions: sessions.length,
    inputTokens,
    skills,
    neverLoaded: existing.filter((name) => !loaded.has(name)),
  };

  function entry(name: string) {
    let record = usage.get(name);
    if (!record) {
      record = {
        name,
        loadsByModel: 0,
        loadsByUser: 0,
        sessions: 0,
        bodyTokens: 0,
        inputTokens: 0,
        inputShare: 0,
        lastUsed: "",
        seenIn: new Set(),
      };
      usage.set(name, record);
    }
    return record;
  }
}

/** The skill bodies a message brings in, and who brought them. Summaries (re-injections) are not loads. */
function loadsIn(message: Message): Array<{ name: string; by: "model" | "user"; tokens: number }> {
  if (message.role === "tool") {
    const name = message.isError ? undefined : message.meta?.skill;
    return name ? [{ name, by: "model", tokens: estimateTokens(message.content) }] : [];
  }
  if (message.role === "user" && message.meta?.kind === undefined) {
    return (message.meta?.skills ?? []).map((span) => ({
      name: span.name,
      by: "user" as const,
      tokens: estimateTokens(message.content.slice(span.start, span.end)),
    }));
  }
  return [];
}
