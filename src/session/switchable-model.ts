import type { CompleteOptions, ModelProvider, ModelRequest, ModelResponse } from "../providers/provider.js";

/**
 * The session's model as one handle: the loop, compaction summaries and subagents all hold
 * it, so `switchTo` (the interactive front end changing the model between prompts) reaches
 * every part at once. A request already sent finishes on the model it started with.
 */
export class SwitchableModel implements ModelProvider {
  constructor(private current: ModelProvider) {}

  get name(): string {
    return this.current.name;
  }

  get model(): string {
    return this.current.model;
  }

  complete(request: ModelRequest, options?: CompleteOptions): Promise<ModelResponse> {
    return this.current.complete(request, options);
  }

  switchTo(provider: ModelProvider): void {
    this.current = provider;
  }
}
