// Helpers for end-to-end tests: the hx arguments for the fake model server, and readers and
// checks of the OpenAI Chat Completions request bodies it recorded.
import type { FakeModelServer, RecordedRequest } from "./fake-model-server.js";

/** `--provider openai` against the fake server, working in `dir`. */
export function openaiArgs(server: FakeModelServer, dir: string, model = "m"): string[] {
  return ["--provider", "openai", "--base-url", `${server.url}/v1`, "--model", model, "-C", dir];
}

export const OPENAI_KEY = { OPENAI_API_KEY: "sk-test" };
export const BYPASS = ["--permission-mode", "bypassPermissions"];

// biome-ignore lint/suspicious/noExplicitAny: wire messages are read as recorded JSON.
export type WireMessage = any;

/** The chat messages of a recorded request (system message included). */
export function messagesOf(request: RecordedRequest): WireMessage[] {
  return request.body.messages as WireMessage[];
}

/** The `role: "tool"` results of a request, in order, as text. */
export function toolResultsOf(request: RecordedRequest): string[] {
  return messagesOf(request)
    .filter((message) => message.role === "tool")
    .map((message) => String(message.content));
}

/** The names of the tools offered in a request. */
export function toolNamesOf(request: RecordedRequest): string[] {
  return (request.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
}

/** A request made by the session (with tools), as opposed to a summary request (no tools). */
export function isSessionRequest(request: RecordedRequest): boolean {
  return Array.isArray(request.body.tools) && request.body.tools.length > 0;
}

/**
 * Pairing problems in a Chat Completions message list: every assistant tool call must be
 * answered by a `tool` message right after it (before the next non-tool message), and every
 * tool message must answer such a call.
 */
export function pairingProblems(messages: readonly WireMessage[]): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  messages.forEach((message, i) => {
    if (message.role === "tool") {
      if (!open.delete(message.tool_call_id))
        problems.push(`tool result ${message.tool_call_id} (#${i}) has no call`);
      return;
    }
    for (const id of open) problems.push(`call ${id} has no result before message #${i}`);
    open = new Set();
    if (message.role === "assistant") for (const call of message.tool_calls ?? []) open.add(call.id);
  });
  for (const id of open) problems.push(`call ${id} has no result at the end of the request`);
  return problems;
}

/** Resolves when `predicate` holds, checking every 10 ms (a wait, not a timed assertion). */
export async function waitFor(predicate: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
