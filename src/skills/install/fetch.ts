import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const GIT_TIMEOUT_MS = 5 * 60 * 1000;

/** What `hx skills add` was given, resolved: a folder on this machine or a git repository. */
export type SkillSourceSpec =
  | { type: "local"; dir: string }
  /** `github`: written to the lock as `owner/repo` with sourceType `github`, as `skills` does. */
  | { type: "git"; url: string; github?: string };

/**
 * `./path` or any existing folder → local; a URL (`https://`, `file://`, `ssh://`, `git@host:`)
 * or a `.git` path → git; `owner/repo` → that GitHub repository. Undefined for anything else.
 */
export function resolveSource(input: string, cwd: string): SkillSourceSpec | undefined {
  const local = path.resolve(cwd, input.startsWith("~/") ? path.join(os.homedir(), input.slice(2)) : input);
  if (existsSync(local) && statSync(local).isDirectory() && !local.endsWith(".git"))
    return { type: "local", dir: local };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input) || /^[\w.-]+@[\w.-]+:/.test(input))
    return { type: "git", url: input };
  if (existsSync(local) && local.endsWith(".git")) return { type: "git", url: local };
  if (/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(input)) {
    const repo = input.replace(/\.git$/, "");
    return { type: "git", url: `https://github.com/${repo}.git`, github: repo };
  }
  return undefined;
}

export interface FetchedSource {
  /** The folder holding the source's files (a temporary clone for git). */
  dir: string;
  /** The commit checked out (git, or a local folder inside a repository). */
  ref?: string;
  /** Removes the temporary clone. */
  dispose(): void;
}

/** Gives the source's files: the folder itself, or a shallow clone of `ref` (default branch when absent). */
export async function fetchSource(spec: SkillSourceSpec, ref?: string): Promise<FetchedSource> {
  if (spec.type === "local") {
    return { dir: spec.dir, ref: await headOf(spec.dir).catch(() => undefined), dispose: () => {} };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "hx-skills-add-"));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    const branch = ref && !/^[0-9a-f]{7,40}$/i.test(ref) ? ["--branch", ref] : [];
    const shallow = ref && branch.length === 0 ? [] : ["--depth", "1"];
    await git(["clone", "--quiet", ...shallow, ...branch, "--", spec.url, dir]);
    if (ref && branch.length === 0) await git(["-C", dir, "checkout", "--quiet", ref]);
    return { dir, ref: await headOf(dir), dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

async function headOf(dir: string): Promise<string> {
  const { stdout } = await git(["-C", dir, "rev-parse", "HEAD"]);
  return stdout.trim();
}

/** Runs the `git` binary without a terminal prompt (a private URL fails instead of waiting). */
async function git(args: string[]): Promise<{ stdout: string }> {
  try {
    return await run("git", args, {
      timeout: GIT_TIMEOUT_MS,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "" },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const problem = error as NodeJS.ErrnoException & { stderr?: string };
    if (problem.code === "ENOENT")
      throw new Error("git is not installed (hx skills add uses the git binary)");
    const detail = (problem.stderr ?? "").trim().split("\n").slice(-2).join(" ") || problem.message;
    throw new Error(
      `git ${args
        .filter((a) => !a.startsWith("-"))
        .slice(0, 1)
        .join("")} failed: ${detail}`,
    );
  }
}
