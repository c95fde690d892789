import { ToolError } from "../core/tool.js";
import { builtSchema } from "../tools/built-schemas.js";
import { defineTool, type Zod } from "../tools/tool.js";

export const exitPlanModeParameters = (z: Zod) =>
  z.object({
    plan: z
      .string()
      .min(1)
      .describe("The plan, in markdown: the steps you will take, the files you will change"),
  });

/** The mode the user continues in after approving a plan. */
type PlanApprovalMode = "default" | "acceptEdits";

/** What the user says to a plan: carry it out (in this mode), or keep planning (with feedback). */
export type PlanAnswer = { kind: "approve"; mode: PlanApprovalMode } | { kind: "revise"; feedback: string };

/** Shows the plan to the user and waits for the answer; aborted with the run (answer: revise). */
export type PlanAsker = (plan: string, signal: AbortSignal) => Promise<PlanAnswer>;

/** The session's permission mode, as the tool needs it. */
export interface PlanModeHandle {
  readonly mode: string;
  set(mode: PlanApprovalMode): void;
}

/**
 * `exit_plan_mode {plan}`: offered to the model only in plan mode. With someone to answer, the
 * plan is shown and the user approves it (choosing the mode to go on in) or keeps planning with
 * feedback. Headless, nobody can approve: the mode stays plan and the model is told to end with
 * the plan as its answer, so the run's result is the plan.
 */
export function createExitPlanModeTool(mode: PlanModeHandle, ask: PlanAsker | undefined) {
  return defineTool({
    name: "exit_plan_mode",
    description:
      "In plan mode, when your plan is ready: present it to the user for approval. On approval the mode changes and you carry the plan out; otherwise you get feedback and keep planning.",
    parameters: exitPlanModeParameters,
    jsonSchema: builtSchema("exit_plan_mode"),
    effect: "none",
    offered: () => mode.mode === "plan",
    async execute(args, ctx) {
      if (mode.mode !== "plan")
        throw new ToolError(`not in plan mode (the mode is ${mode.mode}); carry on with the task.`);
      if (!ask)
        return "Nobody can approve the plan in this run (no terminal), so the mode stays plan. End your turn now with the plan as your final answer.";
      const answer = await ask(args.plan, ctx.signal);
      if (answer.kind === "revise")
        return `The user wants to keep planning${answer.feedback ? `: ${answer.feedback}` : "."} Stay in plan mode, revise the plan, and call exit_plan_mode again when it is ready.`;
      mode.set(answer.mode);
      return `The user approved the plan. The permission mode is now ${answer.mode}${answer.mode === "acceptEdits" ? " (file edits run without asking)" : " (edits and commands are asked)"}: carry out the plan.`;
    },
  });
}
