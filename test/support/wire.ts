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

/** `--provider anthropic` against the fake server, working in `dir`. */
export function anthropicArgs(server: FakeModelServer, dir: string, model = "m"): string[] {
  return ["--provider", "anthropic", "--base-url", server.url, "--model", model, "-C", dir];
}

export const ANTHROPIC_KEY = { ANTHROPIC_API_KEY: "sk-ant-test" };

/**
 * Pairing problems in a recorded request of either wire: every tool call is answered exactly
 * once, right after it, every result answers a call, and no call id is used twice.
 */
export function requestProblems(request: RecordedRequest): string[] {
  const messages = messagesOf(request);
  const isAnthropic = request.path.endsWith("/messages");
  const problems = isAnthropic ? pairingProblems(anthropicAsChat(messages)) : pairingProblems(messages);
  const ids = (isAnthropic ? anthropicAsChat(messages) : messages).flatMap((message: WireMessage) =>
    message.role === "assistant" ? (message.tool_calls ?? []).map((call: { id: string }) => call.id) : [],
  );
  for (const id of new Set(ids)) {
    if (ids.filter((other: string) => other === id).length > 1) problems.push(`call id ${id} is used twice`);
  }
  return problems;
}

/** Anthropic messages in the Chat Completions shape `pairingProblems` reads. */
function anthropicAsChat(messages: readonly WireMessage[]): WireMessage[] {
  const blocks = (message: WireMessage): WireMessage[] =>
    Array.isArray(message.content) ? message.content : [{ type: "text", text: message.content }];
  return messages.flatMap((message) => {
    if (message.role === "assistant") {
      const calls = blocks(message).filter((block) => block.type === "tool_use");
      return [{ role: "assistant", tool_calls: calls.map((block) => ({ id: block.id })) }];
    }
    const results = blocks(message).filter((block) => block.type === "tool_result");
    const rest = blocks(message).filter((block) => block.type !== "tool_result");
    return [
      ...results.map((block) => ({ role: "tool", tool_call_id: block.tool_use_id })),
      ...(rest.length > 0 || results.length === 0 ? [{ role: "user" }] : []),
    ];
  });
}
