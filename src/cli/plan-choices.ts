import type { PromptChoiceLike } from "./permission-choices.js";

/** What the user can answer to the model's plan: go on in a mode, or keep planning. */
export type PlanChoice = "acceptEdits" | "default" | "revise";

export const PLAN_CHOICES: readonly PromptChoiceLike<PlanChoice>[] = [
  { choice: "acceptEdits", key: "y", label: "Yes, and allow all edits (acceptEdits)" },
  { choice: "default", key: "d", label: "Yes, and ask before edits and commands (default)" },
  { choice: "revise", key: "n", label: "No, keep planning (say what to change)" },
];
