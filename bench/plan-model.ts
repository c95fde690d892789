// A model for benches: follows a fixed plan of tool calls and answers, and records every
// request it was sent (what the bench measures).
import { estimateRequestTokens } from "../src/context/tokens.js";
import { emptyUsage } from "../src/core/messages.js";
import type { ModelProvider, ModelRequest, ModelResponse } from "../src/providers/provider.js";

export type Step = { tool: string; args: Record<string, unknown> } | { text: string };

/** A model that follows a fixed plan and records what it was sent. */
export class PlanModel implements ModelProvider {
  readonly name = "bench";
  readonly model = "bench-model";
  readonly requests: ModelRequest[] = [];
  private index = 0;
  constructor(private readonly plan: Step[]) {}
  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(structuredClone(request));
    const step = this.plan[this.index++] ?? { text: "done" };
    const usage = { ...emptyUsage(), inputTokens: estimateRequestTokens(request), outputTokens: 30 };
    if ("text" in step) {
      return { message: { role: "assistant", content: step.text, toolCalls: [] }, usage, stopReason: "stop" };
    }
    const call = { id: `call_${this.index}`, name: step.tool, arguments: JSON.stringify(step.args) };
    return {
      message: { role: "assistant", content: "", toolCalls: [call] },
      usage,
      stopReason: "tool_calls",
    };
  }
}
