import os from "node:os";
import path from "node:path";
import picomatch from "picomatch";
import { INSTRUCTION_FILES, PROJECT_SKILL_FOLDERS, USER_SKILL_FOLDERS } from "./agent-files.js";

const BASE_WORKSPACE_PATTERNS = [
  ".hx/**",
  ".claude/**",
  ".mcp.json",
  ".git/config",
  ".git/config.worktree",
  ".git/hooks/**",
  // husky points core.hooksPath here: its scripts run on `git commit`.
  ".husky/**",
];

/** `folder/**` for each folder not already inside a protected one (`.claude/skills` is in `.claude/**`). */
function folderPatterns(folders: readonly string[], covered: readonly string[]): string[] {
  const isCovered = (folder: string) =>
    covered.some((pattern) => pattern.endsWith("/**") && `${folder}/`.startsWith(pattern.slice(0, -2)));
  return folders.filter((folder) => !isCovered(folder)).map((folder) => `${folder}/**`);
}

/**
 * Paths whose change would let a model raise its own permissions or run code on the next
 * start: hx's and Claude Code's settings and hooks, MCP server lists, git's config and hooks
 * (`core.fsmonitor`, `core.pager`, hook scripts run on `git status`/`git commit`), every
 * skill folder hx reads (a skill's `allowed-tools` pre-approves calls), and the user's shell
 * start-up files. Writes to them are always asked (headless: refused), in every mode,
 * bypassPermissions included; "always" answers never cover them; the sandbox mounts them
 * read-only.
 */
export const PROTECTED_WORKSPACE_PATTERNS: readonly string[] = [
  ...BASE_WORKSPACE_PATTERNS,
  ...folderPatterns(PROJECT_SKILL_FOLDERS, BASE_WORKSPACE_PATTERNS),
];

/**
 * Instruction files (`AGENTS.md`, `CLAUDE.md`), at any depth: what they say reaches every
 * request's system prompt. Asked like the paths above by the permission check; the sandbox
 * does not mount them (a stand-in for a missing one would show in every `git status`).
 */
const PROTECTED_INSTRUCTION_FILES: readonly string[] = INSTRUCTION_FILES;

/**
 * `.git` itself at any depth: written as a file (`gitdir: ../evil`) it points git at a config
 * the model also wrote (`core.fsmonitor` runs on the next `git status` there). Asked by the
 * permission check; the sandbox keeps the real `.git` folder writable for commits.
 */
const GIT_POINTERS: readonly string[] = [".git"];

/**
 * Folders in the user's home that hx reads as the user's own: its settings, trusted folders
 * and MCP approvals (`~/.hx`), Claude Code's (`~/.claude`) and the user's skills. A write there
 * would raise permissions in every project.
 */
const PROTECTED_HOME_FOLDERS: readonly string[] = [
  ".hx",
  ".claude",
  ...USER_SKILL_FOLDERS.filter((folder) => !/^\.(hx|claude)\//.test(folder)),
];

/** Shell start-up files, relative to the user's home folder. */
export const PROTECTED_HOME_FILES: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".config/fish/config.fish",
  // Git's global config can set core.fsmonitor or core.pager for every repository.
  ".gitconfig",
  ".config/git/config",
];

// At any depth: hx reads `sub/.hx/settings.json` when run in `sub`, and git runs the
// `core.fsmonitor` of `sub/.git/config` there, so a nested copy is as dangerous as the top one.
const matchWorkspace = picomatch(
  [...PROTECTED_WORKSPACE_PATTERNS, ...PROTECTED_INSTRUCTION_FILES, ...GIT_POINTERS].map(
    (pattern) => `**/${pattern}`,
  ),
  { dot: true, nocase: true },
);
/** The protected folders themselves (`.hx`, `sub/.agents/skills`), which the patterns' `/**` leave out. */
const matchWorkspaceFolder = picomatch(
  PROTECTED_WORKSPACE_PATTERNS.filter((p) => p.endsWith("/**")).map((p) => `**/${p.slice(0, -3)}`),
  { dot: true, nocase: true },
);

/**
 * True when `absolute` (a real path, symlinks resolved) is a protected path: below `root` and
 * matching a workspace pattern at any depth (the folder itself, `.hx` or `sub/.hx`, counts
 * too), or a shell start-up file in `home`. Case-insensitive, so `.GIT/config` on a
 * case-insensitive disk is caught as well.
 */
export function isProtectedPath(absolute: string, root: string, home: string = os.homedir()): boolean {
  const rel = path.relative(root, absolute);
  if (rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel)) {
    const posix = rel.split(path.sep).join("/");
    if (matchWorkspace(posix) || matchWorkspaceFolder(posix)) return true;
  }
  const fromHome = path.relative(home, absolute).split(path.sep).join("/").toLowerCase();
  if (fromHome.startsWith("..") || path.isAbsolute(fromHome)) return false;
  if (PROTECTED_HOME_FILES.some((file) => file.toLowerCase() === fromHome)) return true;
  return PROTECTED_HOME_FOLDERS.some((folder) => fromHome === folder || fromHome.startsWith(`${folder}/`));
}
