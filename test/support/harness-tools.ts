import { z } from "zod";
import type { LoopExtension } from "../../src/agent/extension.js";
import { runAgentLoop } from "../../src/agent/loop.js";
import { Conversation } from "../../src/core/conversation.js";
import type { AgentEvent, AgentResult } from "../../src/core/events.js";
import type { Message } from "../../src/core/messages.js";
import type { ToolEffect } from "../../src/core/tool.js";
import type { ModelProvider } from "../../src/providers/provider.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { defineTool, type Tool } from "../../src/tools/tool.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "./temp-dir.js";

export interface RecordingTool extends Tool {
  calls: unknown[];
}

/** A tool with the given effect whose rule subject is its `subject` field; it echoes what it got. */
export function recordingTool(name: string, effect: ToolEffect, output = `${name} ran`): RecordingTool {
  const calls: unknown[] = [];
  const tool = defineTool({
    name,
    description: `fake ${name}`,
    effect,
    parameters: () => z.object({ subject: z.string().optional() }),
    ruleSubject: (args) => args.subject,
    async execute(args) {
      calls.push(args);
      return output;
    },
  });
  return Object.assign(tool, { calls }) as RecordingTool;
}

/** The seed's base tools, faked: bash, read_file, write_file, edit_file, glob, grep. */
export function fakeBaseTools(): RecordingTool[] {
  return [
    recordingTool("bash", "execute"),
    recordingTool("read_file", "read"),
    recordingTool("write_file", "write"),
    recordingTool("edit_file", "write"),
    recordingTool("glob", "read"),
    recordingTool("grep", "read"),
  ];
}

export interface LoopRun {
  result: AgentResult;
  events: AgentEvent[];
  messages: readonly Message[];
}

/** Runs the real agent loop once with the given pieces. */
export async function runLoop(options: {
  provider: ModelProvider;
  tools: Tool[];
  extensions?: LoopExtension[];
  prompt?: string;
  messages?: readonly Message[];
  maxTurns?: number;
  root?: string;
  signal?: AbortSignal;
  system?: string;
}): Promise<LoopRun> {
  const events: AgentEvent[] = [];
  const conversation = new Conversation(
    options.messages ?? [{ role: "user", content: options.prompt ?? "go" }],
  );
  const result = await runAgentLoop(
    {
      provider: options.provider,
      system: options.system ?? "system",
      tools: new ToolRegistry(options.tools),
      workspace: new Workspace(options.root ?? tempDir()),
      maxTurns: options.maxTurns ?? 10,
      extensions: options.extensions ?? [],
      emit: (event) => events.push(event),
      signal: options.signal,
    },
    conversation,
  );
  return { result, events, messages: conversation.messages };
}

/** The contents of the tool results in a history, in order. */
export function toolResults(messages: readonly Message[]): string[] {
  return messages.flatMap((message) => (message.role === "tool" ? [message.content] : []));
}
