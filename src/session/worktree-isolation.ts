import type { SessionBasics } from "../agent/capability.js";
import type { LoopExtension } from "../agent/extension.js";
import { findRepoRoot } from "../fs/project-root.js";
import { setUpShell } from "../shell/capability.js";
import { createWorktreeIsolation, type TaskToolDeps, type WorkspaceKit } from "../subagent/index.js";
import type { Workspace } from "../tools/workspace.js";
import { setUpBaseTools } from "./tools-setup.js";

/**
 * `task`'s `isolation: "worktree"` for this session: offered only in a git repository (see
 * createWorktreeIsolation), each subagent with a kit bound to its worktree (workspaceKits).
 */
export function worktreeIsolation(
  basics: SessionBasics,
  shellOptions: Parameters<typeof setUpShell>[1],
  hooks: LoopExtension,
  permissionsFor: (workspace: Workspace) => LoopExtension,
): TaskToolDeps["isolate"] {
  const repoRoot = findRepoRoot(basics.workspace.root);
  if (!repoRoot) return undefined;
  const kitFor = workspaceKits(basics, shellOptions, hooks, permissionsFor);
  return createWorktreeIsolation({ repoRoot, root: basics.workspace.root, kitFor });
}

/**
 * Kits bound to another workspace: a shell (its own sandbox, writable there only), the base
 * tools on it, and the session's hooks and permissions with that workspace as root.
 */
function workspaceKits(
  basics: SessionBasics,
  shellOptions: Parameters<typeof setUpShell>[1],
  hooks: LoopExtension,
  permissionsFor: (workspace: Workspace) => LoopExtension,
): (workspace: Workspace) => Promise<WorkspaceKit> {
  return async (workspace) => {
    const { sandboxMode, askNetwork, ask } = shellOptions;
    const shell = await setUpShell(
      { ...basics, cwd: workspace.root, workspace },
      { sandboxMode, askNetwork, ask },
    );
    return {
      tools: setUpBaseTools({ bash: shell.bash }).tools ?? [],
      extensions: [...(shell.extensions ?? []), hooks, permissionsFor(workspace)],
      close: () => void shell.close?.(),
    };
  };
}
