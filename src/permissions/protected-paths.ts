import os from "node:os";
import path from "node:path";
import picomatch from "picomatch";

/**
 * Paths whose change would let a model raise its own permissions or run code on the next
 * start: hx's and Claude Code's settings and hooks, MCP server lists, git's config and hooks
 * (`core.fsmonitor`, `core.pager`, hook scripts run on `git status`/`git commit`), and the
 * user's shell start-up files. Writes to them are always asked (headless: refused), in every
 * mode, bypassPermissions included; "always" answers never cover them; the sandbox mounts
 * them read-only.
 */
export const PROTECTED_WORKSPACE_PATTERNS: readonly string[] = [
  ".hx/**",
  ".claude/**",
  ".mcp.json",
  ".git/config",
  ".git/config.worktree",
  ".git/hooks/**",
  // husky points core.hooksPath here: its scripts run on `git commit`.
  ".husky/**",
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
  PROTECTED_WORKSPACE_PATTERNS.map((pattern) => `**/${pattern}`),
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
    if (matchWorkspace(posix)) return true;
    if (/(^|\/)(\.hx|\.claude|\.git\/hooks|\.husky)$/i.test(posix)) return true;
  }
  const fromHome = path.relative(home, absolute).split(path.sep).join("/");
  return PROTECTED_HOME_FILES.some((file) => file.toLowerCase() === fromHome.toLowerCase());
}
