import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ToolOutput } from "../../src/core/tool.js";
import { createBaseTools } from "../../src/tools/base-tools.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";

/** Writes files (path → content) below `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

function contextFor(workspace: Workspace, signal = new AbortController().signal): ToolContext {
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
async function callTool(
  registry: ToolRegistry,
  name: string,
  args: unknown,
  ctx: ToolContext,
): Promise<ToolOutput> {
  const prepared = await registry.prepare({ id: ctx.callId, name, arguments: JSON.stringify(args) });
  if (!prepared.ok) return { content: prepared.error, isError: true };
  return registry.run(prepared, ctx);
}
