import type { Capability } from "../agent/capability.js";
import type { PermissionModeHandle } from "../permissions/capability.js";
import { createExitPlanModeTool, type PlanAsker } from "./exit-plan-mode-tool.js";

/** Leaving plan mode: `exit_plan_mode`, offered to the model only while the mode is plan. */
export function setUpPlanExit(options: { mode: PermissionModeHandle; ask?: PlanAsker }): Capability {
  return { name: "plan", tools: [createExitPlanModeTool(options.mode, options.ask)] };
}
