// One ACP session: an ordinary hx session opened for the editor's `cwd`, whose permission
// questions go to the editor and whose file tools write through its buffers when it offers to.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type AgentConnection,
  type McpServer,
  methods,
  RequestError,
  type RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import { whenAborted } from "../../core/abort.js";
import { errorMessage } from "../../core/error-message.js";
import type { PermissionAnswer, PermissionAsker, PermissionRequest } from "../../permissions/index.js";
import { ProviderError } from "../../providers/provider.js";
import type { AgentSession } from "../../session/agent-session.js";
import type { FileEditor } from "../../tools/workspace.js";
import type { RunFlags } from "../run-config.js";
import type { EventMapper } from "./acp-updates.js";

export interface AcpSession {
  id: string;
  session: AgentSession;
  /** The prompt under way: its cancel switch and the mapper that follows its events. */
  turn?: { controller: AbortController; mapper: EventMapper };
  /** The client's MCP servers, written as an `--mcp-config` file for hx's MCP client. */
  mcpFolder?: string;
}

/** What opening a session needs from the connection it serves. */
export interface AcpPeer {
  /** `hx acp`'s own flags (provider, model, permission mode…). */
  flags: RunFlags;
  log: (line: string) => void;
  /** The connection once it is open. */
  connection(): AgentConnection | undefined;
  /** The editor offered `fs/write_text_file` at `initialize`. */
  editorWrites(): boolean;
}

/** Opens an hx session in `cwd` (continuing `resume`), with the client's MCP servers. */
export async function openAcpSession(
  peer: AcpPeer,
  cwd: string,
  mcpServers: McpServer[],
  resume?: string,
): Promise<AcpSession> {
  const mcpFolder = mcpServers.length > 0 ? writeMcpConfig(mcpServers) : undefined;
  const sessionFlags: RunFlags = {
    ...peer.flags,
    cwd,
    resume,
    continue: false,
    mcpConfig: [...(peer.flags.mcpConfig ?? []), ...(mcpFolder ? [path.join(mcpFolder, "mcp.json")] : [])],
  };
  let record: AcpSession | undefined;
  try {
    // The session's modules load on the first session, so `initialize` answers fast.
    const { prepareRun } = await import("../prepare-run.js");
    const { openSession } = await import("../open-session.js");
    const prepared = await prepareRun(sessionFlags);
    const ask = editorAsker(peer, () => record);
    const session = await openSession(prepared, sessionFlags, { log: peer.log, ask }, { watchSkills: true });
    record = { id: session.transcript.id, session, mcpFolder };
    if (peer.editorWrites()) session.workspace.editor = editorWriter(peer, () => record);
    return record;
  } catch (error) {
    if (mcpFolder) rmSync(mcpFolder, { recursive: true, force: true });
    throw openFailure(error);
  }
}

/** Closes a session and removes its MCP config file. */
export async function closeAcpSession(record: AcpSession): Promise<void> {
  record.turn?.controller.abort();
  await record.session.close();
  if (record.mcpFolder) rmSync(record.mcpFolder, { recursive: true, force: true });
}

/** A missing key or a bad provider setting is ACP's "authentication required". */
function openFailure(error: unknown): RequestError {
  if (error instanceof ProviderError && (error.kind === "auth" || error.kind === "config")) {
    return RequestError.authRequired(undefined, `${error.message}${error.hint ? ` ${error.hint}` : ""}`);
  }
  return RequestError.internalError(undefined, errorMessage(error));
}

/** Asks the editor about a call, as the terminal would; "always" saves the same rule. */
function editorAsker(peer: AcpPeer, record: () => AcpSession | undefined): PermissionAsker {
  return async (request: PermissionRequest): Promise<PermissionAnswer> => {
    const connection = peer.connection();
    const current = record();
    if (!connection || !current) return "no";
    const call = current.turn?.mapper.questionCall();
    const always = request.alwaysRules ?? [];
    const asked: Promise<RequestPermissionResponse> = connection.client.request(
      methods.client.session.requestPermission,
      {
        sessionId: current.id,
        toolCall: {
          toolCallId: call?.toolCallId ?? `question-${Date.now()}`,
          title: request.rule,
          kind: call?.kind,
          status: "pending",
        },
        options: permissionOptions(always),
      },
      { cancellationSignal: request.signal },
    );
    const answer = await Promise.race([asked.catch(() => undefined), whenAborted(request.signal)]);
    if (answer?.outcome.outcome !== "selected") return "no";
    if (answer.outcome.optionId === "allow_once") return "yes";
    if (answer.outcome.optionId === "allow_always") return always.length > 0 ? "always" : "yes";
    return "no";
  };
}

/** Allow once, always allow (when a rule would be saved), reject. */
function permissionOptions(always: readonly string[]) {
  return [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" as const },
    ...(always.length > 0
      ? [
          {
            optionId: "allow_always",
            name: `Always allow ${always.join(", ")}`,
            kind: "allow_always" as const,
          },
        ]
      : []),
    { optionId: "reject_once", name: "Reject", kind: "reject_once" as const },
  ];
}

/** File tools write through the editor (`fs/write_text_file`): edits land in its buffers. */
function editorWriter(peer: AcpPeer, record: () => AcpSession | undefined): FileEditor {
  return {
    async writeTextFile(absolute, text) {
      const connection = peer.connection();
      const current = record();
      if (!connection || !current) throw new Error("the editor is gone");
      await connection.client.request(methods.client.fs.writeTextFile, {
        sessionId: current.id,
        path: absolute,
        content: text,
      });
    },
  };
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
