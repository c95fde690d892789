import type { CreateMessageRequestParams, CreateMessageResult } from "@modelcontextprotocol/sdk/types.js";
import type { Message } from "../core/messages.js";
import { userMessage } from "../core/messages.js";
import type { PermissionAsker } from "../permissions/index.js";
import type { ModelProvider } from "../providers/provider.js";
import type { McpClientFeatures } from "./client-features.js";

/** Headless answer to `sampling/createMessage`: refuse (default) or allow. */
export type HeadlessSampling = "refuse" | "allow";

export interface SamplingOptions {
  /** The session's model, once the session has one (servers start before it exists). */
  model: () => ModelProvider | undefined;
  /** Someone to approve each request (the terminal); without it, `headless` decides. */
  ask: () => PermissionAsker | undefined;
  headless: HeadlessSampling;
  notify: (text: string) => void;
}

/** The error a refused sampling request gets; the server reads it. */
class SamplingRefused extends Error {}

/**
 * `sampling/createMessage` through the session's model: shown to the user, who allows it
 * (once, or for the rest of the session for that server) or not; headless, refused unless
 * `mcp.sampling` is "allow". Only text is passed; the answer is the model's text.
 */
export function samplingHandler(options: SamplingOptions): NonNullable<McpClientFeatures["sample"]> {
  const allowed = new Set<string>();
  return async (server, params, signal) => {
    const model = options.model();
    if (!model) throw new SamplingRefused("hx's session has no model yet; try again in a moment");
    const ask = options.ask();
    const prompt = promptText(params);
    if (!allowed.has(server)) {
      if (!ask) {
        if (options.headless !== "allow") {
          options.notify(
            `MCP server '${server}' asked hx's model to answer a prompt; refused: no one to approve it in a headless run ("mcp": {"sampling": "allow"} permits it).`,
          );
          throw new SamplingRefused("the user did not approve sampling (headless run)");
        }
      } else {
        const answer = await ask({
          tool: "mcp",
          effect: "execute",
          rule: `MCP server ${server} to use the model (sampling): ${prompt.slice(0, 200)}${prompt.length > 200 ? "…" : ""}`,
          reason: "a server asks hx's model to answer a prompt, at your cost",
          signal,
        });
        if (answer === "no") throw new SamplingRefused("the user declined the sampling request");
        if (answer === "always") allowed.add(server);
      }
    }
    const response = await model.complete(
      { system: params.systemPrompt ?? "", messages: toMessages(params), tools: [] },
      { signal },
    );
    return {
      role: "assistant",
      content: { type: "text", text: response.message.content },
      model: model.model,
      stopReason: response.stopReason === "length" ? "maxTokens" : "endTurn",
    } as CreateMessageResult;
  };
}

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) =>
      block && typeof block === "object" && (block as { type?: string }).type === "text"
        ? String((block as { text?: unknown }).text ?? "")
        : `[${(block as { type?: string })?.type ?? "unknown"} content, not passed]`,
    )
    .join("\n");
}

function toMessages(params: CreateMessageRequestParams): Message[] {
  return params.messages.map((message) =>
    message.role === "assistant"
      ? { role: "assistant", content: textOf(message.content), toolCalls: [] }
      : userMessage(textOf(message.content)),
  );
}

function promptText(params: CreateMessageRequestParams): string {
  return params.messages.map((m) => textOf(m.content)).join(" / ");
}
