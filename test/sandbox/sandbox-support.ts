import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";
import type { ToolOutput } from "../../src/core/tool.js";
import { findBackend, probeBackend } from "../../src/sandbox/detect.js";
import { createSandbox, resolveSandboxOptions, type SandboxOptions } from "../../src/sandbox/index.js";
import { createBashTool } from "../../src/tools/bash.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";

/** Whether this machine can run the OS sandbox; tests that need it skip with this reason. */
export const backend = await probeBackend(findBackend());

/** `describe` title suffix: empty when the sandbox works, else the visible reason for skipping. */
export const skipReason = backend.ok ? "" : ` (skipped: ${backend.reason}; fix: ${backend.fix})`;
if (!backend.ok) console.warn(`sandbox tests skipped: ${backend.reason}`);

/** Pids of live processes whose command line contains `text` (Linux/macOS `pgrep -f`). */
export function processesMatching(text: string): number[] {
  try {
    return execFileSync("pgrep", ["-f", text], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A unique `sleep` duration, so a test can find exactly its own sleeper with pgrep. */
export function uniqueSleep(): string {
  return `${1000 + Math.floor(Math.random() * 8000)}.${process.pid % 1000}${Math.floor(Math.random() * 1000)}`;
}

/**
 * A sandbox over a fresh workspace and private /tmp, and a bash tool running in it: `run`
 * returns what the model would read, `notices` what the user would see. Registers the
 * sandbox's disposal in `disposers` (empty them after each test).
 */
export function sandboxedBash(disposers: Array<() => void>, overrides: Partial<SandboxOptions> = {}) {
  const root = realpathSync(tempDir("hx-sbx-ws-"));
  const sandbox = createSandbox({
    ...resolveSandboxOptions({ workspaceRoot: root }).options,
    tempRoot: realpathSync(tempDir("hx-sbx-tmp-")),
    ...overrides,
  });
  disposers.push(() => sandbox.dispose());
  const tool = createBashTool({ sandbox });
  const workspace = new Workspace(root);
  const notices: string[] = [];
  const run = async (command: string, timeout?: number): Promise<string> => {
    const output = (await tool.execute(
      { command, timeout },
      {
        workspace,
        signal: new AbortController().signal,
        callId: "c1",
        emit: (event) => {
          if (event.type === "notice") notices.push(event.text);
        },
      },
    )) as ToolOutput;
    return output.content;
  };
  return { root, sandbox, run, notices };
}
