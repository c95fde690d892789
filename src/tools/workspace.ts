import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ToolError } from "../core/tool.js";

/** Like the kernel's limit: more hops than this means a symlink loop. */
const MAX_SYMLINK_HOPS = 40;

/**
 * The folder the agent works in. Every path a tool touches is resolved here, symlinks
 * included (dangling ones too), and must stay inside the root (or inside an extra read-only
 * root, such as the folder of a skill the model has loaded).
 */
/**
 * Where file tools write instead of the disk: an editor over ACP (`fs/write_text_file`), so
 * edits land in its buffers. Paths are absolute and already checked against the workspace.
 */
export interface FileEditor {
  writeTextFile(absolute: string, text: string): Promise<void>;
}

export class Workspace {
  readonly root: string;
  /** Set by a front end whose editor takes the writes (see FileEditor); undefined: the disk. */
  editor: FileEditor | undefined;
  /** Extra read-only roots, each with how many grants hold it (see allowRead). */
  private readonly readRoots = new Map<string, number>();
  private readonly hiddenFromReads: Array<(absolute: string) => boolean> = [];

  constructor(root: string) {
    this.root = realpathSync(path.resolve(root));
  }

  /**
   * Hides files from tools that list or search many files at once (glob, grep), e.g. those a
   * `read_file` deny rule covers. `test` gets a real absolute path.
   */
  hideFromReads(test: (absolute: string) => boolean): void {
    this.hiddenFromReads.push(test);
  }

  /** True when a file must not show up in listings or search results (see hideFromReads). */
  isHiddenFromReads(absolute: string): boolean {
    return this.hiddenFromReads.some((test) => test(absolute));
  }

  /**
   * Lets tools read (never write) below `dir`, e.g. a loaded skill's folder, until the returned
   * function revokes this grant (the folder stays readable while another grant holds it).
   */
  allowRead(dir: string): () => void {
    const root = resolveReal(path.resolve(dir));
    this.readRoots.set(root, (this.readRoots.get(root) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const count = (this.readRoots.get(root) ?? 1) - 1;
      if (count > 0) this.readRoots.set(root, count);
      else this.readRoots.delete(root);
    };
  }

  /** Resolves a path for reading: inside the workspace or an allowed read root. */
  resolveForRead(input: string): string {
    const resolved = this.resolve(input);
    if (isInside(resolved, this.root)) return resolved;
    for (const dir of this.readRoots.keys()) if (isInside(resolved, dir)) return resolved;
    throw outside(input, resolved, this.root);
  }

  /** Resolves a path for writing: inside the workspace only. */
  resolveForWrite(input: string): string {
    const resolved = this.resolve(input);
    if (isInside(resolved, this.root)) return resolved;
    throw outside(input, resolved, this.root);
  }

  /** True when a real path (symlinks already resolved) may be written: inside the root. */
  isWritable(realPath: string): boolean {
    return isInside(realPath, this.root);
  }

  /** A path relative to the workspace root, for display ("." for the root). */
  relative(absolute: string): string {
    const rel = path.relative(this.root, absolute);
    return rel === "" ? "." : rel;
  }

  /**
   * The path permission rules match against: resolved like a real access (symlinks, `..`,
   * `~`), then relative to the root when inside it, absolute otherwise. Never throws, so a
   * rule can be checked before the tool reports a bad path.
   */
  pathForRules(input: string): string {
    try {
      const resolved = this.resolve(input);
      return isInside(resolved, this.root) ? this.relative(resolved) : resolved;
    } catch {
      return input;
    }
  }

  private resolve(input: string): string {
    if (typeof input !== "string" || input.trim() === "")
      throw new ToolError("path must be a non-empty string");
    if (input.includes("\0")) throw new ToolError("path must not contain NUL characters");
    return resolveReal(path.resolve(this.root, expandHome(input)));
  }
}

function outside(input: string, resolved: string, root: string): ToolError {
  const via = path.resolve(root, expandHome(input)) === resolved ? "" : ` (it resolves to ${resolved})`;
  return new ToolError(
    `path '${input}' is outside the workspace ${root}${via}. Use a path inside the workspace (relative paths are resolved from its root).`,
  );
}

/** True when `child` is `parent` or below it. Both must be absolute and normalised. */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function expandHome(input: string): string {
  if (input === "~") return os.homedir();
  if (input.startsWith("~/")) return path.join(os.homedir(), input.slice(2));
  return input;
}

function lexists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where an absolute path really points (see resolveReal); never throws: a symlink loop gives
 * the path as it is.
 */
export function realPathOf(p: string): string {
  try {
    return resolveReal(path.resolve(p));
  } catch {
    return path.resolve(p);
  }
}

/**
 * Where `p` really points: symlinks resolved in the longest existing prefix, the missing rest
 * appended, so a file not yet written is judged by where its parent really is. A dangling
 * symlink is followed to its target, so writing through it cannot escape the workspace.
 */
function resolveReal(p: string, hops = 0): string {
  const missing: string[] = [];
  let current = p;
  while (!lexists(current)) {
    const parent = path.dirname(current);
    if (parent === current) break;
    missing.unshift(path.basename(current));
    current = parent;
  }
  try {
    return path.join(realpathSync(current), ...missing);
  } catch {
    // `current` exists but does not resolve: a dangling symlink, a loop, or no permission.
  }
  const parent = path.dirname(current);
  const realParent = parent === current ? parent : resolveReal(parent, hops);
  let target: string;
  try {
    target = readlinkSync(current);
  } catch {
    return path.join(realParent, path.basename(current), ...missing);
  }
  if (hops >= MAX_SYMLINK_HOPS) throw new ToolError(`too many levels of symbolic links at '${current}'`);
  return resolveReal(path.join(path.resolve(realParent, target), ...missing), hops + 1);
}

/** A path argument as permission rules see it; without a workspace, just normalised. */
export function pathRuleSubject(input: string, workspace?: Workspace): string {
  return workspace ? workspace.pathForRules(input) : path.normalize(input);
}
