import type { EventSink } from "../agent/events.js";
import { breakdownContext, type ContextCompactor, renderContextTable } from "../context/index.js";
import type { Message } from "../core/messages.js";
import type { Skill } from "../skills/index.js";
import { findSession, formatSessionList, listSessions, readTranscript } from "../transcript/index.js";
import type { AgentSession } from "./agent-session.js";

export interface SlashCommandIO {
  print: (text: string) => void;
  emit: EventSink;
  signal: AbortSignal;
}

/** A command typed at the interactive prompt as `/name args`. */
export interface SlashCommand {
  name: string;
  usage: string;
  description: string;
  run(args: string, io: SlashCommandIO): Promise<void> | void;
}

/** The session's own slash commands: a registry the REPL looks names up in. */
export function createSlashCommands(deps: {
  session: AgentSession;
  skills: readonly Skill[];
  compactor: ContextCompactor;
  catalog: string;
  window: number;
  /** Puts a saved conversation in place of the current history. */
  replaceHistory: (messages: Message[]) => void;
}): SlashCommand[] {
  const { session } = deps;
  const contextReport = () =>
    renderContextTable(
      breakdownContext({
        system: session.system,
        catalog: deps.catalog,
        toolSchemas: session.parts.tools.schemas(),
        messages: session.messages,
        window: deps.window,
      }),
    );
  return [
    {
      name: "context",
      usage: "/context",
      description: "what the next request holds, in tokens",
      run: (_args, io) => io.print(contextReport()),
    },
    {
      name: "compact",
      usage: "/compact [focus]",
      description: "summarise older history now (optionally what to keep in focus)",
      async run(args, io) {
        const record = await deps.compactor.compactNow(session.messages, {
          focus: args.trim() || undefined,
          emit: io.emit,
          signal: io.signal,
          trigger: "manual",
        });
        io.print(
          record
            ? `Compacted: ${record.droppedMessages} message(s) summarised, ${record.keptMessages} kept; ~${record.tokensBefore.toLocaleString("en-US")} → ~${record.tokensAfter.toLocaleString("en-US")} tokens.`
            : "Nothing to compact yet.",
        );
      },
    },
    {
      name: "resume",
      usage: "/resume [id]",
      description: "list saved sessions, or load one's history into this conversation",
      run(args, io) {
        const root = session.parts.workspace.root;
        if (!args.trim()) {
          io.print(formatSessionList(listSessions(root)));
          return;
        }
        const lookup = findSession(root, args);
        if (lookup.kind !== "found") {
          io.print(lookup.message);
          return;
        }
        const transcript = readTranscript(lookup.session.file);
        deps.replaceHistory(transcript.messages);
        io.print(`Resumed ${lookup.session.id}: ${transcript.messages.length} messages.`);
      },
    },
    {
      name: "skills",
      usage: "/skills",
      description: "the skills the model can load (type /<name> to invoke one)",
      run(_args, io) {
        if (deps.skills.length === 0) {
          io.print("No skills found. Add one with: hx skills new NAME");
          return;
        }
        for (const skill of deps.skills) io.print(`  /${skill.name}  ${firstLine(skill.description)}`);
      },
    },
  ];
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
