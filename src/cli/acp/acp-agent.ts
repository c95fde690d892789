// `hx acp`: hx as an Agent Client Protocol agent (protocol v1) for editors. One connection,
// any number of sessions; each is an ordinary hx session (createSession through openSession)
// driven by ACP requests instead of a terminal. Only loaded for `hx acp`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type AgentConnection,
  agent,
  type ContentBlock,
  type McpServer,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type SessionModeState,
  type SessionUpdate,
  type Stream,
} from "@agentclientprotocol/sdk";
import { errorMessage } from "../../core/error-message.js";
import type { PermissionAnswer, PermissionAsker, PermissionRequest } from "../../permissions/index.js";
import { PERMISSION_MODES, type PermissionMode, parsePermissionMode } from "../../permissions/modes.js";
import { ProviderError } from "../../providers/provider.js";
import type { AgentSession } from "../../session/agent-session.js";
import type { FileEditor } from "../../tools/workspace.js";
import type { RunFlags } from "../run-config.js";
import { VERSION } from "../version.js";
import { availableCommands, EventMapper, replayUpdates, stopReason } from "./acp-updates.js";

interface AcpSession {
  id: string;
  session: AgentSession;
  /** The prompt under way: its cancel switch and the mapper that follows its events. */
  turn?: { controller: AbortController; mapper: EventMapper };
  /** The client's MCP servers, written as an `--mcp-config` file for hx's MCP client. */
  mcpFolder?: string;
}

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
  const sessions = new Map<string, AcpSession>();
  let connection: AgentConnection | undefined;
  /** What the editor offered at `initialize`. */
  let editorWrites = false;
  const notify = async (sessionId: string, update: SessionUpdate) => {
    await connection?.client.notify(methods.client.session.update, { sessionId, update });
  };
  const find = (sessionId: string): AcpSession => {
    const found = sessions.get(sessionId);
    if (!found) throw RequestError.sessionNotFound(sessionId);
    return found;
  };

  /** Asks the editor about a call, as the terminal would; "always" saves the same rule. */
  const askerFor =
    (record: () => AcpSession | undefined): PermissionAsker =>
    async (request: PermissionRequest): Promise<PermissionAnswer> => {
      const current = record();
      if (!connection || !current) return "no";
      const call = current.turn?.mapper.questionCall();
      const always = request.alwaysRules ?? [];
      const asked = connection.client.request(
        methods.client.session.requestPermission,
        {
          sessionId: current.id,
          toolCall: {
            toolCallId: call?.toolCallId ?? `question-${Date.now()}`,
            title: request.rule,
            kind: call?.kind,
            status: "pending",
          },
          options: [
            { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
            ...(always.length > 0
              ? [
                  {
                    optionId: "allow_always",
                    name: `Always allow ${always.join(", ")}`,
                    kind: "allow_always" as const,
                  },
                ]
              : []),
            { optionId: "reject_once", name: "Reject", kind: "reject_once" },
          ],
        },
        { cancellationSignal: request.signal },
      );
      const cancelled = new Promise<undefined>((resolve) => {
        if (request.signal.aborted) resolve(undefined);
        request.signal.addEventListener("abort", () => resolve(undefined), { once: true });
      });
      const answer = await Promise.race([asked.catch(() => undefined), cancelled]);
      if (answer?.outcome.outcome !== "selected") return "no";
      if (answer.outcome.optionId === "allow_once") return "yes";
      if (answer.outcome.optionId === "allow_always") return always.length > 0 ? "always" : "yes";
      return "no";
    };

  /** File tools write through the editor (`fs/write_text_file`): edits land in its buffers. */
  const editorFor = (record: () => AcpSession | undefined): FileEditor => ({
    async writeTextFile(absolute, text) {
      const current = record();
      if (!connection || !current) throw new Error("the editor is gone");
      await connection.client.request(methods.client.fs.writeTextFile, {
        sessionId: current.id,
        path: absolute,
        content: text,
      });
    },
  });

  /** Opens an hx session in `cwd` (continuing `resume`), with the client's MCP servers. */
  const open = async (cwd: string, mcpServers: McpServer[], resume?: string): Promise<AcpSession> => {
    const mcpFolder = mcpServers.length > 0 ? writeMcpConfig(mcpServers) : undefined;
    const sessionFlags: RunFlags = {
      ...flags,
      cwd,
      resume,
      continue: false,
      mcpConfig: [...(flags.mcpConfig ?? []), ...(mcpFolder ? [path.join(mcpFolder, "mcp.json")] : [])],
    };
    let record: AcpSession | undefined;
    try {
      // The session's modules load on the first session, so `initialize` answers fast.
      const { prepareRun } = await import("../prepare-run.js");
      const { openSession } = await import("../open-session.js");
      const prepared = await prepareRun(sessionFlags);
      const session = await openSession(
        prepared,
        sessionFlags,
        { log, ask: askerFor(() => record) },
        { watchSkills: true },
      );
      record = { id: session.transcript.id, session, mcpFolder };
      if (editorWrites) session.workspace.editor = editorFor(() => record);
      return record;
    } catch (error) {
      if (mcpFolder) rmSync(mcpFolder, { recursive: true, force: true });
      if (error instanceof ProviderError && (error.kind === "auth" || error.kind === "config")) {
        throw RequestError.authRequired(undefined, `${error.message}${error.hint ? ` ${error.hint}` : ""}`);
      }
      throw RequestError.internalError(undefined, errorMessage(error));
    }
  };

  const announceCommands = (record: AcpSession) => {
    const { session } = record;
    const commands = [
      ...session.commands,
      ...session.skills.map((skill) => ({ ...skill, description: `skill: ${skill.description}` })),
    ];
    // After the response that named the session: the editor knows it by then.
    setTimeout(() => {
      void notify(record.id, {
        sessionUpdate: "available_commands_update",
        availableCommands: availableCommands(commands),
      }).catch(() => {});
    }, 0);
  };

  const app = agent({ name: "hx" })
    .onRequest(methods.agent.initialize, ({ params }) => {
      editorWrites = params.clientCapabilities?.fs?.writeTextFile === true;
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
    })
    .onRequest(methods.agent.authenticate, async ({ params }) => {
      if (params.methodId !== "environment-key")
        throw RequestError.invalidParams(undefined, "unknown auth method");
      try {
        const { resolveRun, withProvider } = await import("../prepare-run.js");
        await withProvider(await resolveRun(flags, log));
      } catch (error) {
        throw RequestError.authRequired(undefined, errorMessage(error));
      }
      return {};
    })
    .onRequest(methods.agent.session.new, async ({ params }) => {
      const record = await open(params.cwd, params.mcpServers ?? []);
      sessions.set(record.id, record);
      announceCommands(record);
      return { sessionId: record.id, modes: modeState(record.session) };
    })
    .onRequest(methods.agent.session.load, async ({ params }) => {
      const record = await open(params.cwd, params.mcpServers ?? [], params.sessionId);
      // The client names the session by the id it asked for, even if hx continued it in a fork.
      record.id = params.sessionId;
      sessions.set(params.sessionId, record);
      for (const update of replayUpdates(record.session.conversation.messages, record.session)) {
        await notify(params.sessionId, update);
      }
      announceCommands(record);
      return { modes: modeState(record.session) };
    })
    .onRequest(methods.agent.session.list, async ({ params }) => {
      const { realpathSync } = await import("node:fs");
      const { listSessions } = await import("../../transcript/sessions.js");
      const cwd = path.resolve(params.cwd ?? flags.cwd ?? process.cwd());
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
    })
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      const record = find(params.sessionId);
      const mode = parsePermissionMode(params.modeId);
      if (typeof mode !== "string") throw RequestError.invalidParams(undefined, mode.error);
      record.session.permissions.set(mode);
      return {};
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const record = find(params.sessionId);
      if (record.turn)
        throw RequestError.invalidRequest(undefined, "a prompt is already running in this session");
      const controller = new AbortController();
      const mapper = new EventMapper(record.session);
      record.turn = { controller, mapper };
      const send = (update: SessionUpdate) => void notify(record.id, update).catch(() => {});
      const emit = (event: Parameters<EventMapper["updates"]>[0]) => {
        for (const update of mapper.updates(event)) send(update);
      };
      try {
        const text = promptText(params.prompt);
        const command = slashCommand(text, record.session);
        if (command) {
          await command.run(command.args, {
            print: (line) =>
              send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${line}\n` } }),
            emit,
            signal: controller.signal,
          });
          return { stopReason: controller.signal.aborted ? "cancelled" : "end_turn" };
        }
        const result = await record.session.run(text, { emit, signal: controller.signal });
        if (result.refused) {
          send({
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `refused: ${result.refused}` },
          });
        }
        if (result.stop === "error" || result.stop === "ended") {
          const reason = result.error
            ? `${result.error.message}${result.error.hint ? `\n${result.error.hint}` : ""}`
            : "";
          if (result.stop === "error")
            throw RequestError.internalError(undefined, reason || "the run failed");
          if (reason)
            send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n${reason}` } });
        }
        return { stopReason: stopReason(result) };
      } finally {
        record.turn = undefined;
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.turn?.controller.abort();
    });

  connection = app.connect(stream);
  await connection.closed;
  for (const record of sessions.values()) {
    record.turn?.controller.abort();
    await record.session.close();
    if (record.mcpFolder) rmSync(record.mcpFolder, { recursive: true, force: true });
  }
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

/** The client's MCP servers as an `--mcp-config` file in a private temp folder. */
function writeMcpConfig(servers: McpServer[]): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "hx-acp-mcp-"));
  const entries: Record<string, unknown> = {};
  for (const server of servers) {
    if ("type" in server && (server.type === "http" || server.type === "sse")) {
      entries[server.name] = {
        type: server.type,
        url: server.url,
        headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])),
      };
    } else if ("command" in server) {
      entries[server.name] = {
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map((e) => [e.name, e.value])),
      };
    }
  }
  writeFileSync(path.join(folder, "mcp.json"), JSON.stringify({ mcpServers: entries }), { mode: 0o600 });
  return folder;
}
