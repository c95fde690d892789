import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import type { ToolOutput } from "../../src/core/tool.js";
import { createBaseTools } from "../../src/tools/base-tools.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { Workspace } from "../../src/tools/workspace.js";

/** Temp dirs made by this test file, removed after each test. */
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh real directory under the OS temp dir (symlinks resolved), removed after the test. */
export function tempDir(prefix = "hx-tools-"): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** Writes files (path → content) below `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

export function contextFor(workspace: Workspace, signal = new AbortController().signal): ToolContext {
  return { workspace, signal, callId: "call-1", emit: () => {} };
}

/** A workspace in a fresh temp dir plus a function that calls base tools the way the loop does. */
export function setup(files: Record<string, string | Buffer> = {}) {
  const root = tempDir();
  writeFiles(root, files);
  const workspace = new Workspace(root);
  const registry = new ToolRegistry(createBaseTools());
  const call = (name: string, args: unknown, signal?: AbortSignal): Promise<ToolOutput> =>
    callTool(registry, name, args, contextFor(workspace, signal));
  return { root, workspace, registry, call };
}

/** prepare + run, as the agent loop does: bad arguments and thrown errors become error results. */
export async function callTool(
  registry: ToolRegistry,
  name: string,
  args: unknown,
  ctx: ToolContext,
): Promise<ToolOutput> {
  const prepared = registry.prepare({ id: ctx.callId, name, arguments: JSON.stringify(args) });
  if (!prepared.ok) return { content: prepared.error, isError: true };
  return registry.run(prepared, ctx);
}
