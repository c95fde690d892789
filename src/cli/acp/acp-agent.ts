// `hx acp`: hx as an Agent Client Protocol agent (protocol v1) for editors. One connection,
// any number of sessions; each is an ordinary hx session (createSession through openSession)
// driven by ACP requests instead of a terminal. Only loaded for `hx acp`.
import path from "node:path";
import {
  type AgentConnection,
  agent,
  type ContentBlock,
  type InitializeResponse,
  type ListSessionsResponse,
  type McpServer,
  methods,
  PROTOCOL_VERSION,
  type PromptResponse,
  RequestError,
  type SessionModeState,
  type SessionUpdate,
  type Stream,
} from "@agentclientprotocol/sdk";
import { errorMessage } from "../../core/error-message.js";
import { PERMISSION_MODES, type PermissionMode, parsePermissionMode } from "../../permissions/index.js";
import type { AgentSession, SessionRunResult } from "../../session/agent-session.js";
import type { RunFlags } from "../run-config.js";
import { VERSION } from "../version.js";
import { type AcpPeer, type AcpSession, closeAcpSession, openAcpSession } from "./acp-session.js";
import { availableCommands, EventMapper, replayUpdates, stopReason } from "./acp-updates.js";

/** `session/list` answers this many of the latest sessions (one page). */
const MAX_LISTED_SESSIONS = 200;

const MODE_NAMES: Record<PermissionMode, { name: string; description: string }> = {
  default: { name: "Default", description: "ask before edits and commands no rule allows" },
  acceptEdits: { name: "Accept edits", description: "edit files in the workspace without asking" },
  plan: { name: "Plan", description: "read and plan only: no edits, no commands" },
  bypassPermissions: { name: "Bypass permissions", description: "run everything but the block list" },
};

/**
 * Serves ACP on `stream` until the client closes it. `flags` are `hx acp`'s own (provider,
 * model, permission mode…); a session's `cwd` comes from the client. Logs go to `log`
 * (stderr): stdout is the protocol's.
 */
export async function serveAcp(stream: Stream, flags: RunFlags, log: (line: string) => void): Promise<void> {
  await new AcpServer(flags, log).serve(stream);
}

/** One connection's sessions, and a handler per ACP request. */
class AcpServer implements AcpPeer {
  readonly flags: RunFlags;
  readonly log: (line: string) => void;
  private readonly sessions = new Map<string, AcpSession>();
  private open: AgentConnection | undefined;
  /** What the editor offered at `initialize`. */
  private writes = false;

  constructor(flags: RunFlags, log: (line: string) => void) {
    this.flags = flags;
    this.log = log;
  }

  connection(): AgentConnection | undefined {
    return this.open;
  }

  editorWrites(): boolean {
    return this.writes;
  }

  async serve(stream: Stream): Promise<void> {
    this.open = this.handlers().connect(stream);
    await this.open.closed;
    for (const record of this.sessions.values()) await closeAcpSession(record);
  }

  private handlers() {
    return agent({ name: "hx" })
      .onRequest(methods.agent.initialize, ({ params }) =>
        this.initialize(params.clientCapabilities?.fs?.writeTextFile === true),
      )
      .onRequest(methods.agent.authenticate, ({ params }) => this.authenticate(params.methodId))
      .onRequest(methods.agent.session.new, ({ params }) =>
        this.newSession(params.cwd, params.mcpServers ?? []),
      )
      .onRequest(methods.agent.session.load, ({ params }) =>
        this.loadSession(params.sessionId, params.cwd, params.mcpServers ?? []),
      )
      .onRequest(methods.agent.session.list, ({ params }) => this.listSessions(params.cwd ?? undefined))
      .onRequest(methods.agent.session.setMode, ({ params }) => this.setMode(params.sessionId, params.modeId))
      .onRequest(methods.agent.session.prompt, ({ params }) => this.prompt(params.sessionId, params.prompt))
      .onNotification(methods.agent.session.cancel, ({ params }) => {
        this.sessions.get(params.sessionId)?.turn?.controller.abort();
      });
  }

  private initialize(editorWrites: boolean): InitializeResponse {
    this.writes = editorWrites;
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        sessionCapabilities: { list: {} },
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
      },
      authMethods: [
        {
          id: "environment-key",
          name: "API key in the environment",
          description:
            "Set DEEPSEEK_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY (and HX_PROVIDER) in the agent's environment, or use a local server with HX_BASE_URL.",
        },
      ],
      agentInfo: { name: "hx", title: "HarnessX", version: VERSION },
    };
  }

  private async authenticate(methodId: string): Promise<Record<string, never>> {
    if (methodId !== "environment-key") throw RequestError.invalidParams(undefined, "unknown auth method");
    try {
      const { resolveRun, withProvider } = await import("../prepare-run.js");
      await withProvider(await resolveRun(this.flags, this.log));
    } catch (error) {
      throw RequestError.authRequired(undefined, errorMessage(error));
    }
    return {};
  }

  private async newSession(cwd: string, mcpServers: McpServer[]) {
    const record = await openAcpSession(this, cwd, mcpServers);
    this.sessions.set(record.id, record);
    this.announceCommands(record);
    return { sessionId: record.id, modes: modeState(record.session) };
  }

  private async loadSession(sessionId: string, cwd: string, mcpServers: McpServer[]) {
    const record = await openAcpSession(this, cwd, mcpServers, sessionId);
    // The client names the session by the id it asked for, even if hx continued it in a fork.
    record.id = sessionId;
    this.sessions.set(sessionId, record);
    for (const update of replayUpdates(record.session.conversation.messages, record.session)) {
      await this.notify(sessionId, update);
    }
    this.announceCommands(record);
    return { modes: modeState(record.session) };
  }

  private async listSessions(requestedCwd: string | undefined): Promise<ListSessionsResponse> {
    const { realpathSync } = await import("node:fs");
    const { listSessions } = await import("../../transcript/sessions.js");
    const cwd = path.resolve(requestedCwd ?? this.flags.cwd ?? process.cwd());
    let root: string;
    try {
      root = realpathSync(cwd);
    } catch {
      throw RequestError.invalidParams(undefined, `cwd '${cwd}' is not a folder`);
    }
    const found = listSessions(root).slice(0, MAX_LISTED_SESSIONS);
    return {
      sessions: found.map((info) => ({
        sessionId: info.id,
        cwd: root,
        title: info.firstPrompt.length > 80 ? `${info.firstPrompt.slice(0, 77)}...` : info.firstPrompt,
        updatedAt: info.updatedAt.toISOString(),
      })),
    };
  }

  private setMode(sessionId: string, modeId: string): Record<string, never> {
    const record = this.find(sessionId);
    const mode = parsePermissionMode(modeId);
    if (typeof mode !== "string") throw RequestError.invalidParams(undefined, mode.error);
    record.session.permissions.set(mode);
    return {};
  }

  /** Runs a prompt (or a slash command) in a session; one at a time per session. */
  private async prompt(sessionId: string, blocks: ContentBlock[]): Promise<PromptResponse> {
    const record = this.find(sessionId);
    if (record.turn)
      throw RequestError.invalidRequest(undefined, "a prompt is already running in this session");
    const controller = new AbortController();
    const mapper = new EventMapper(record.session);
    record.turn = { controller, mapper };
    const send = (update: SessionUpdate) => void this.notify(record.id, update).catch(() => {});
    const emit = (event: Parameters<EventMapper["updates"]>[0]) => {
      for (const update of mapper.updates(event)) send(update);
    };
    const say = (text: string) =>
      send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    try {
      const text = promptText(blocks);
      const command = slashCommand(text, record.session);
      if (command) {
        await command.run(command.args, {
          print: (line) => say(`${line}\n`),
          emit,
          signal: controller.signal,
        });
        return { stopReason: controller.signal.aborted ? "cancelled" : "end_turn" };
      }
      const result = await record.session.run(text, { emit, signal: controller.signal });
      reportRunEnd(result, say);
      return { stopReason: stopReason(result) };
    } finally {
      record.turn = undefined;
    }
  }

  /** The session's commands and skills, sent after the response that named the session. */
  private announceCommands(record: AcpSession): void {
    const { session } = record;
    const commands = [
      ...session.commands,
      ...session.skills.map((skill) => ({ ...skill, description: `skill: ${skill.description}` })),
    ];
    // After the response that named the session: the editor knows it by then.
    setTimeout(() => {
      void this.notify(record.id, {
        sessionUpdate: "available_commands_update",
        availableCommands: availableCommands(commands),
      }).catch(() => {});
    }, 0);
  }

  private async notify(sessionId: string, update: SessionUpdate): Promise<void> {
    await this.open?.client.notify(methods.client.session.update, { sessionId, update });
  }

  private find(sessionId: string): AcpSession {
    const found = this.sessions.get(sessionId);
    if (!found) throw RequestError.sessionNotFound(sessionId);
    return found;
  }
}

/** A refusal or an ended run is said in the chat; a failed run is the prompt's error. */
function reportRunEnd(result: SessionRunResult, say: (text: string) => void): void {
  if (result.refused) say(`refused: ${result.refused}`);
  if (result.stop !== "error" && result.stop !== "ended") return;
  const reason = result.error
    ? `${result.error.message}${result.error.hint ? `\n${result.error.hint}` : ""}`
    : "";
  if (result.stop === "error") throw RequestError.internalError(undefined, reason || "the run failed");
  if (reason) say(`\n${reason}`);
}

function modeState(session: AgentSession): SessionModeState {
  return {
    currentModeId: session.permissions.mode,
    availableModes: PERMISSION_MODES.map((id) => ({ id, ...MODE_NAMES[id] })),
  };
}

/** The prompt as text: text blocks, embedded resources as tagged text, links by their URI. */
function promptText(blocks: ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource" && "text" in block.resource) {
      parts.push(`<resource uri="${block.resource.uri}">\n${block.resource.text}\n</resource>`);
    } else if (block.type === "resource_link") parts.push(`@${block.uri}`);
  }
  return parts.join("\n").trim();
}

/** `/name args` for one of the session's commands (skills are the session's own prompt filter). */
function slashCommand(text: string, session: AgentSession) {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return undefined;
  const command = session.commands.find((c) => c.name === match[1]);
  return command ? { run: command.run.bind(command), args: match[2]?.trim() ?? "" } : undefined;
}
