import type { ToolEffect } from "../core/tool.js";

/**
 * How much the agent may do without asking:
 * - `default`: reads run; file writes and commands not covered by a rule are asked.
 * - `acceptEdits`: reads and writes run; commands are asked.
 * - `plan`: read-only; nothing that writes or runs is allowed.
 * - `bypassPermissions`: everything runs except deny rules and the block list.
 */
export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions"] as const;

export type PermissionMode = (typeof PERMISSION_MODES)[number];

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === "string" && (PERMISSION_MODES as readonly string[]).includes(value);
}

/** Parses `--permission-mode` or `permissions.defaultMode`; the error names the valid modes. */
export function parsePermissionMode(value: string): PermissionMode | { error: string } {
  if (isPermissionMode(value)) return value;
  return { error: `Unknown permission mode '${value}'. Use one of: ${PERMISSION_MODES.join(", ")}.` };
}

/** True for effects that change the world (and so are refused in plan mode). */
export function changesTheWorld(effect: ToolEffect): boolean {
  return effect === "write" || effect === "execute";
}

/** What a mode does with a call no rule covers. */
export function modeVerdict(mode: PermissionMode, effect: ToolEffect): "allow" | "ask" | "deny" {
  if (!changesTheWorld(effect)) return "allow";
  switch (mode) {
    case "bypassPermissions":
      return "allow";
    case "plan":
      return "deny";
    case "acceptEdits":
      return effect === "write" ? "allow" : "ask";
    default:
      return "ask";
  }
}
