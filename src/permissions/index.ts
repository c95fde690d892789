// Permissions: the mode, the rules, the decision for a call and the extension that asks; the
// protected paths; the `permissions` settings fragment. What other folders use.
import { type PermissionMode, parsePermissionMode } from "./modes.js";
import { type PermissionRules, parseRules } from "./rules.js";
import type { PermissionSettings } from "./settings.js";

export type { PermissionAnswer, PermissionAsker, PermissionRequest } from "./ask.js";
export { type DecisionBand, describeBand } from "./bands.js";

export { type PermissionCheck, PermissionChecker } from "./checker.js";
export { describeCall } from "./decide.js";

export { isPermissionMode, PERMISSION_MODES, type PermissionMode, parsePermissionMode } from "./modes.js";
export type {
  PermissionRules,
  RuleTarget,
} from "./rules.js";
export {
  claudePermissionSettings,
  mergePermissionSettings,
  type PermissionSettings,
  permissionSettingsSchema,
} from "./settings.js";
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
