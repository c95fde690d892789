import type { Capability, SessionBasics } from "../agent/capability.js";
import type { LoopExtension } from "../agent/extension.js";
import { localSettingsPath } from "../config/settings.js";
import type { Workspace } from "../tools/workspace.js";
import type { PermissionAsker } from "./ask.js";
import { createBashParserLoader } from "./bash-parser.js";
import { createPermissionExtension, type PermissionOptions } from "./extension.js";
import { permissionsFromSettings } from "./index.js";
import type { PermissionMode } from "./modes.js";
import type { PermissionSettings } from "./settings.js";

/** The session's permission mode, changeable between prompts (e.g. by the interactive front end). */
export interface PermissionModeHandle {
  readonly mode: PermissionMode;
  set(mode: PermissionMode): void;
}

export interface PermissionsCapability extends Capability {
  /** One instance for the session and its subagents, so an "always" answer holds for all. */
  extension: LoopExtension;
  mode: PermissionModeHandle;
  /**
   * The same rules, mode and hooks for another workspace (a subagent's worktree): paths are
   * matched and protected from its root; "always" answers are still saved to the session's file.
   */
  forWorkspace(workspace: Workspace): LoopExtension;
}

/** Permission rules and mode from settings (`--permission-mode` wins), as a loop extension. */
export function setUpPermissions(
  basics: SessionBasics<{ permissions?: PermissionSettings }>,
  options: {
    permissionMode?: string;
    ask?: PermissionAsker;
    /** What PreToolUse hooks said (`permissionDecision`), read for each call. */
    hookPermissions?: PermissionOptions["hookPermissions"];
    /** PermissionRequest and Notification hooks around each question. */
    hookAnswers?: PermissionOptions["hookAnswers"];
    /** Rules held for a while (active skills' allowed-tools / disallowed-tools), read for each call. */
    scopedRules?: PermissionOptions["scopedRules"];
    /** False in an untrusted folder: refusals then advise the user's settings or `hx trust`. */
    projectSettingsApply?: boolean;
  },
): PermissionsCapability {
  const { mode, rules, readOnlyCommands, warnings } = permissionsFromSettings(
    basics.settings.permissions,
    options.permissionMode,
  );
  let current = mode;
  const handle: PermissionModeHandle = {
    get mode() {
      return current;
    },
    set(next) {
      current = next;
    },
  };
  const loadParser = createBashParserLoader();
  const extensionFor = (workspace: Workspace) =>
    createPermissionExtension({
      // Read at each call, so a change through the handle applies to the next tool call.
      get mode() {
        return current;
      },
      rules,
      readOnlyCommands,
      projectRoot: workspace.root,
      workspace,
      localSettingsFile: localSettingsPath(basics.workspace.root),
      ask: options.ask,
      projectSettingsApply: options.projectSettingsApply,
      hookPermissions: options.hookPermissions,
      hookAnswers: options.hookAnswers,
      scopedRules: options.scopedRules,
      loadParser,
    });
  const extension = extensionFor(basics.workspace);
  return {
    name: "permissions",
    extensions: [extension],
    extension,
    mode: handle,
    warnings,
    forWorkspace: extensionFor,
  };
}
