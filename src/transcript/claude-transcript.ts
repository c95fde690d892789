import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Conversation, ConversationChange } from "../core/conversation.js";
import type { Message, ToolCall } from "../core/messages.js";
import { claudeToolInput, claudeToolName } from "../tools/claude-call.js";
import type { Tool } from "../tools/tool.js";
import type { Workspace } from "../tools/workspace.js";
import { projectSessionsDir } from "./paths.js";

export interface ClaudeTranscriptOptions {
  sessionId: string;
  workspace: Workspace;
  /** The tool a call names, for Claude Code's name and input; read when a call is written. */
  toolFor: (name: string) => Tool | undefined;
  /** Not persisted: the file goes in a temporary folder, removed at close. */
  temporary?: boolean;
  onError?: (error: Error) => void;
}

/**
 * The session as a Claude Code transcript, for hooks that read `transcript_path` (a Stop loop
 * looking for the model's last words, a guard checking what was read): one JSON line per
 * message, `{"type":"user"|"assistant","message":{"role",...,"content":[blocks]}}`, with
 * `tool_use` blocks in the assistant's message (Claude Code's tool names and input) and
 * `tool_result` blocks in a user message. It follows the `Conversation` like hx's own
 * transcript, beside it (`<sessions>/claude/<id>.jsonl`); a replaced history (compaction,
 * /clear, resume) is a `compact_boundary` line followed by the new history.
 */
export class ClaudeTranscript {
  readonly file: string;
  private fd?: number;
  private failed = false;
  private lastUuid: string | null = null;
  private count = 0;
  private readonly tempDir?: string;

  constructor(private readonly options: ClaudeTranscriptOptions) {
    if (options.temporary) {
      this.tempDir = mkdtempSync(path.join(os.tmpdir(), "hx-transcript-"));
      this.file = path.join(this.tempDir, `${options.sessionId}.jsonl`);
    } else {
      this.file = path.join(
        projectSessionsDir(options.workspace.root),
        "claude",
        `${options.sessionId}.jsonl`,
      );
    }
  }

  /** Writes `history` (a resumed session's messages), then every change of `conversation`. */
  follow(conversation: Conversation): () => void {
    // A resumed session writes its history anew over the mirror of its earlier runs.
    if (conversation.messages.length > 0) this.open("w");
    for (const message of conversation.messages) this.message(message);
    return conversation.subscribe((change) => this.change(change));
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
  }

  private change(change: ConversationChange): void {
    if (change.type === "append") {
      this.message(change.message);
      return;
    }
    this.line({
      type: "system",
      subtype: "compact_boundary",
      content: `history replaced (${change.reason})`,
    });
    for (const message of change.messages) this.message(message);
  }

  private message(message: Message): void {
    if (message.role === "user") {
      this.line({ type: "user", message: { role: "user", content: message.content } });
    } else if (message.role === "assistant") {
      const content: unknown[] = [];
      if (message.reasoning?.text) content.push({ type: "thinking", thinking: message.reasoning.text });
      if (message.content) content.push({ type: "text", text: message.content });
      for (const call of message.toolCalls) content.push(this.toolUse(call));
      this.line({ type: "assistant", message: { role: "assistant", type: "message", content } });
    } else {
      const block = {
        type: "tool_result",
        tool_use_id: message.toolCallId,
        content: message.content,
        ...(message.isError ? { is_error: true } : {}),
      };
      this.line({ type: "user", message: { role: "user", content: [block] } });
    }
  }

  private toolUse(call: ToolCall): Record<string, unknown> {
    let args: unknown;
    try {
      args = JSON.parse(call.arguments || "{}");
    } catch {
      args = { raw: call.arguments };
    }
    const tool = this.options.toolFor(call.name);
    if (!tool) return { type: "tool_use", id: call.id, name: call.name, input: args };
    let input: unknown = args;
    try {
      input = claudeToolInput(tool, args, this.options.workspace);
    } catch {
      // Arguments the tool would refuse: written as the model sent them.
    }
    return { type: "tool_use", id: call.id, name: claudeToolName(tool), input };
  }

  private open(flags: "a" | "w"): void {
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      this.fd = openSync(this.file, flags);
    } catch (error) {
      this.failed = true;
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Appends one line. Never throws: a failure is reported once and the mirror stops. */
  private line(entry: Record<string, unknown>): void {
    if (this.failed) return;
    try {
      if (this.fd === undefined) this.open("a");
      this.count += 1;
      const uuid = `${this.options.sessionId}-${this.count}`;
      const record = {
        ...entry,
        uuid,
        parentUuid: this.lastUuid,
        sessionId: this.options.sessionId,
        cwd: this.options.workspace.root,
        timestamp: new Date().toISOString(),
      };
      this.lastUuid = uuid;
      if (this.fd === undefined) return;
      const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset);
    } catch (error) {
      this.failed = true;
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
