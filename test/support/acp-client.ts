// Drives `hx acp` (the built binary) with the ACP SDK's own client, and checks every frame
// both ways against the SDK's zod schemas: what hx sends must be valid ACP v1.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import {
  type ClientConnection,
  client,
  methods,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { HX_BIN, hxEnv, REPO_ROOT } from "./run-hx.js";

type Schema = { safeParse(value: unknown): { success: boolean; error?: unknown } };

/** The SDK's zod schemas (not in its package exports, so loaded by path). */
async function loadSchemas(): Promise<Record<string, Schema>> {
  const file = path.join(REPO_ROOT, "node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js");
  return (await import(file)) as Record<string, Schema>;
}

const RESPONSE_SCHEMA: Record<string, string> = {
  initialize: "zInitializeResponse",
  authenticate: "zAuthenticateResponse",
  "session/new": "zNewSessionResponse",
  "session/load": "zLoadSessionResponse",
  "session/list": "zListSessionsResponse",
  "session/prompt": "zPromptResponse",
  "session/set_mode": "zSetSessionModeResponse",
};
const AGENT_MESSAGE_SCHEMA: Record<string, string> = {
  "session/update": "zSessionNotification",
  "session/request_permission": "zRequestPermissionRequest",
  "fs/write_text_file": "zWriteTextFileRequest",
};

export interface AcpHarness {
  connection: ClientConnection;
  child: ChildProcessWithoutNullStreams;
  /** Every `session/update` hx sent, in order. */
  updates: SessionNotification[];
  /** Every permission question hx asked. */
  questions: RequestPermissionRequest[];
  /** Frames hx wrote that are not valid ACP (each with why). Tests expect it empty. */
  invalid: string[];
  /** Every frame hx wrote, parsed. */
  frames: unknown[];
  stderr: () => string;
  /** `fs/write_text_file` requests hx sent (an editor that offers `fs.writeTextFile`); not written to disk. */
  editorWrites: Array<{ path: string; content: string }>;
  /** Answers the next permission questions (default: reject). */
  answer: (pick: (q: RequestPermissionRequest) => RequestPermissionResponse) => void;
  close: () => Promise<void>;
}

export async function startAcp(args: string[], env: Record<string, string | undefined>): Promise<AcpHarness> {
  const schemas = await loadSchemas();
  const child = spawn(process.execPath, [HX_BIN, "acp", ...args], {
    env: hxEnv(env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const invalid: string[] = [];
  const frames: unknown[] = [];
  const sentMethods = new Map<string | number, string>();
  const check = (schemaName: string | undefined, value: unknown, what: string) => {
    if (!schemaName) {
      invalid.push(`${what}: no schema known`);
      return;
    }
    const result = schemas[schemaName]!.safeParse(value);
    if (!result.success) invalid.push(`${what}: ${JSON.stringify(result.error)}`);
  };

  // Frames from hx: each line checked, then handed to the SDK client.
  const fromHx = new PassThrough();
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    fromHx.write(chunk);
    pending += chunk.toString("utf8");
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
      if (line.trim() === "") continue;
      let frame: Record<string, unknown>;
      try {
        frame = JSON.parse(line);
      } catch {
        invalid.push(`not JSON: ${line.slice(0, 200)}`);
        continue;
      }
      frames.push(frame);
      if (frame.jsonrpc !== "2.0") invalid.push(`no jsonrpc 2.0: ${line.slice(0, 200)}`);
      if (typeof frame.method === "string") {
        check(AGENT_MESSAGE_SCHEMA[frame.method], frame.params, frame.method);
      } else if ("result" in frame) {
        const method = sentMethods.get(frame.id as string | number);
        check(method ? RESPONSE_SCHEMA[method] : undefined, frame.result, `response to ${method}`);
      } else if (!("error" in frame)) {
        invalid.push(`neither request, notification nor response: ${line.slice(0, 200)}`);
      }
    }
  });
  child.stdout.on("end", () => fromHx.end());

  // Frames to hx: their methods are remembered, to know which schema a response must meet.
  const toHx = new WritableStream<Uint8Array>({
    write(chunk) {
      for (const line of Buffer.from(chunk).toString("utf8").split("\n")) {
        if (line.trim() === "") continue;
        const frame = JSON.parse(line);
        if (typeof frame.method === "string" && frame.id !== undefined)
          sentMethods.set(frame.id, frame.method);
      }
      return new Promise((resolve, reject) => child.stdin.write(chunk, (e) => (e ? reject(e) : resolve())));
    },
    close() {
      child.stdin.end();
    },
  });

  const editorWrites: Array<{ path: string; content: string }> = [];
  const updates: SessionNotification[] = [];
  const questions: RequestPermissionRequest[] = [];
  let pick: (q: RequestPermissionRequest) => RequestPermissionResponse = () => ({
    outcome: { outcome: "selected", optionId: "reject_once" },
  });
  const app = client({ name: "hx-test" })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      questions.push(params);
      return pick(params);
    })
    .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
      editorWrites.push({ path: params.path, content: params.content });
      return {};
    });
  const stream = ndJsonStream(toHx, Readable.toWeb(fromHx) as unknown as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return {
    connection,
    child,
    updates,
    questions,
    editorWrites,
    invalid,
    frames,
    stderr: () => stderr,
    answer: (next) => {
      pick = next;
    },
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
      connection.close();
    },
  };
}

/** The text of every `agent_message_chunk` of a session, joined. */
export function agentText(updates: SessionNotification[], sessionId: string): string {
  return updates
    .filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === "agent_message_chunk")
    .map((n) => {
      const update = n.update as { content: { type: string; text?: string } };
      return update.content.type === "text" ? update.content.text : "";
    })
    .join("");
}
