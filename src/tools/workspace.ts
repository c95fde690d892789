import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { ToolError } from "./tool.js";

/**
 * The folder the agent works in. Every path a tool touches is resolved here, symlinks
 * included, and must stay inside the root (or inside an extra read-only root, such as the
 * folder of a skill the model has loaded).
 */
export class Workspace {
  readonly root: string;
  private readonly readRoots = new Set<string>();

  constructor(root: string) {
    this.root = realpathSync(path.resolve(root));
  }

  /** Lets tools read (never write) below `dir`, e.g. a loaded skill's folder. */
  allowRead(dir: string): void {
    this.readRoots.add(realpathIfExists(path.resolve(dir)));
  }

  /** Resolves a path for reading: inside the workspace or an allowed read root. */
  resolveForRead(input: string): string {
    const resolved = this.resolve(input);
    if (isInside(resolved, this.root)) return resolved;
    for (const dir of this.readRoots) if (isInside(resolved, dir)) return resolved;
    throw outside(input, this.root);
  }

  /** Resolves a path for writing: inside the workspace only. */
  resolveForWrite(input: string): string {
    const resolved = this.resolve(input);
    if (isInside(resolved, this.root)) return resolved;
    throw outside(input, this.root);
  }

  /** A path relative to the workspace root, for display ("." for the root). */
  relative(absolute: string): string {
    const rel = path.relative(this.root, absolute);
    return rel === "" ? "." : rel;
  }

  private resolve(input: string): string {
    if (typeof input !== "string" || input.trim() === "") throw new ToolError("Error: path must be a non-empty string");
    const expanded = input.startsWith("~/") ? path.join(process.env.HOME ?? "", input.slice(2)) : input;
    return realpathOfLongestExisting(path.resolve(this.root, expanded));
  }
}

function outside(input: string, root: string): ToolError {
  return new ToolError(
    `Error: path '${input}' is outside the workspace ${root}. Use a path inside the workspace (relative paths are resolved from its root).`,
  );
}

export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function realpathIfExists(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * Resolves symlinks in the longest existing prefix of `p`, then appends the rest, so a path
 * to a file not yet written is judged by where its existing parent really is.
 */
function realpathOfLongestExisting(p: string): string {
  const missing: string[] = [];
  let current = p;
  while (!existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) break;
    missing.unshift(path.basename(current));
    current = parent;
  }
  return path.join(realpathIfExists(current), ...missing);
}
