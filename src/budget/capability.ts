import type { Capability } from "../agent/capability.js";
import type { LoopExtension } from "../agent/extension.js";
import type { AgentEvent } from "../core/events.js";
import { addUsage, emptyUsage, type Usage } from "../core/messages.js";

/** `--max-budget-usd` and `--max-budget-tokens`: what a session may spend. */
export interface BudgetLimits {
  /** US dollars, priced by `costOf`. */
  maxCostUsd?: number;
  /** Prompt plus output tokens of every request (subagents' included). */
  maxTokens?: number;
  /** The price of some usage; required with `maxCostUsd`. */
  costOf?: (usage: Usage) => number;
}

/** Which budget a session used up: a fact the front end reads, never a sentence parsed back. */
export interface BudgetExceeded {
  kind: "usd" | "tokens";
  limit: number;
  spent: number;
}

export interface BudgetCapability extends Capability {
  /** Set once a budget is used up (the run was then ended before its next request). */
  exceeded(): BudgetExceeded | undefined;
  /** Everything spent so far, the subagents' requests included. */
  spent(): Usage;
}

/**
 * Budgets as a loop extension: an observer adds up the usage of every request (the top-level
 * agent's and its subagents'), and before each model request the run is ended cleanly
 * (`state.endRun`) once a budget is reached. A request already under way is never cut: the
 * budget can be passed by at most the last request.
 */
export function setUpBudget(limits: BudgetLimits): BudgetCapability {
  let usage = emptyUsage();
  let exceeded: BudgetExceeded | undefined;
  const observe = (event: AgentEvent): void => {
    const inner = event.type === "subagent" ? event.event : event;
    if (inner.type === "assistant_message") usage = addUsage(usage, inner.usage);
  };
  const check = (): BudgetExceeded | undefined => {
    const tokens = usage.inputTokens + usage.outputTokens;
    if (limits.maxTokens !== undefined && tokens >= limits.maxTokens) {
      return { kind: "tokens", limit: limits.maxTokens, spent: tokens };
    }
    if (limits.maxCostUsd !== undefined && limits.costOf) {
      const cost = limits.costOf(usage);
      if (cost >= limits.maxCostUsd) return { kind: "usd", limit: limits.maxCostUsd, spent: cost };
    }
    return undefined;
  };
  const extension: LoopExtension = {
    name: "budget",
    beforeModelCall(state) {
      exceeded ??= check();
      if (!exceeded) return;
      state.endRun(
        exceeded.kind === "usd"
          ? `Stopped at the budget of $${exceeded.limit} (spent $${exceeded.spent.toFixed(4)}).`
          : `Stopped at the budget of ${exceeded.limit} tokens (used ${exceeded.spent}).`,
      );
    },
  };
  return {
    name: "budget",
    extensions: [extension],
    observers: [observe],
    exceeded: () => exceeded,
    spent: () => usage,
  };
}
