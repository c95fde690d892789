import type { LoopExtension } from "../agent/extension.js";
import { runAgentLoop } from "../agent/loop.js";
import { Conversation } from "../core/conversation.js";
import type { AgentResult, EventSink } from "../core/events.js";
import { type Message, type UserMessageMeta, userMessage } from "../core/messages.js";
import type { ModelProvider } from "../providers/provider.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { Workspace } from "../tools/workspace.js";

export interface SubagentRunConfig {
  provider: ModelProvider;
  system: string;
  tools: ToolRegistry;
  workspace: Workspace;
  extensions: LoopExtension[];
  maxTurns: number;
  /** Labels the wrapped events: `{ type: "subagent", label, event }`. */
  label: string;
  /** The parent's sink. */
  emit: EventSink;
  signal: AbortSignal;
  /** A background job: its permission questions are refused, never asked. */
  unattended?: boolean;
}

/**
 * Runs a subagent: the same loop with fresh messages (only `prompt`), its own tools and
 * limits. Every event it produces, its `end` included, reaches the parent wrapped, so front
 * ends can trace it indented and sessions can total its stats.
 */
export async function runSubagent(
  config: SubagentRunConfig,
  prompt: string,
  meta?: UserMessageMeta,
): Promise<{ result: AgentResult; messages: readonly Message[] }> {
  const conversation = new Conversation([userMessage(prompt, meta)]);
  const result = await runAgentLoop(
    {
      provider: config.provider,
      system: config.system,
      tools: config.tools,
      workspace: config.workspace,
      maxTurns: config.maxTurns,
      extensions: config.extensions,
      emit: (event) => config.emit({ type: "subagent", label: config.label, event }),
      signal: config.signal,
      unattended: config.unattended,
    },
    conversation,
  );
  return { result, messages: conversation.messages };
}

/** The subagent's last words: its final text, or the last thing it said before stopping. */
export function lastAssistantText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message.role === "assistant" && message.content.trim() !== "") return message.content.trim();
  }
  return "";
}
