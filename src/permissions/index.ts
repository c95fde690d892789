import type { PermissionSettings } from "../config/settings.js";
import { type PermissionMode, parsePermissionMode } from "./modes.js";
import { type PermissionRules, parseRules } from "./rules.js";

export type { PermissionAnswer, PermissionAsker, PermissionRequest } from "./ask.js";
export { findBlockedCommand } from "./block-list.js";
export { type PermissionCheck, PermissionChecker, type PermissionCheckerOptions } from "./checker.js";
export { type AskCause, decidePermission, describeCall, type PermissionDecision } from "./decide.js";
export { createPermissionExtension, headlessDenial, type PermissionOptions } from "./extension.js";
export { addAllowRule } from "./local-settings.js";
export { isPermissionMode, PERMISSION_MODES, type PermissionMode, parsePermissionMode } from "./modes.js";
export {
  type PermissionRule,
  type PermissionRules,
  parseRule,
  parseRules,
  type RuleTarget,
} from "./rules.js";
export type { ScopedPermissionRules, ScopedRule } from "./scoped-rules.js";
export { canonicalToolName } from "./tool-aliases.js";

/**
 * The mode, rules and read-only-commands switch from settings, with `--permission-mode` (when given) winning over
 * `permissions.defaultMode`. Problems become warnings; an unknown mode falls back to default.
 */
export function permissionsFromSettings(
  settings: (Omit<PermissionSettings, "defaultMode"> & { defaultMode?: string }) | undefined,
  cliMode?: string,
): { mode: PermissionMode; rules: PermissionRules; readOnlyCommands: boolean; warnings: string[] } {
  const { rules, warnings } = parseRules(settings);
  let mode: PermissionMode = "default";
  const requested = cliMode ?? settings?.defaultMode;
  if (requested !== undefined) {
    const parsed = parsePermissionMode(requested);
    if (typeof parsed === "string") mode = parsed;
    else warnings.push(`${parsed.error} Using default.`);
  }
  if (settings?.readOnlyCommands !== undefined && typeof settings.readOnlyCommands !== "boolean") {
    warnings.push("permissions.readOnlyCommands must be true or false; using true.");
  }
  return { mode, rules, readOnlyCommands: settings?.readOnlyCommands !== false, warnings };
}
