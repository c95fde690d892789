// Plan mode: the exit_plan_mode tool and its question to the user.
export type { PlanAnswer, PlanAsker } from "./exit-plan-mode-tool.js";
