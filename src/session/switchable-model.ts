import {
  type CompleteOptions,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  ProviderError,
} from "../providers/provider.js";

/** A model known by name only: the session was opened without a provider (`hx context`). */
interface NamedModel {
  name: string;
  model: string;
}

/**
 * The session's model as one handle: the loop, compaction summaries and subagents all hold
 * it, so `switchTo` (the interactive front end changing the model between prompts) reaches
 * every part at once, its context window too (compaction and `/context` read it). A request
 * already sent finishes on the model it started with.
 */
export class SwitchableModel implements ModelProvider {
  constructor(
    private current: ModelProvider | NamedModel,
    private window: number,
  ) {}

  /** The current model's context window in tokens. */
  get contextWindow(): number {
    return this.window;
  }

  get name(): string {
    return this.current.name;
  }

  get model(): string {
    return this.current.model;
  }

  complete(request: ModelRequest, options?: CompleteOptions): Promise<ModelResponse> {
    if (!("complete" in this.current)) {
      return Promise.reject(
        new ProviderError(
          "config",
          `this session has no provider for ${this.current.name}/${this.current.model}: it was opened to be measured (hx context), not run.`,
        ),
      );
    }
    return this.current.complete(request, options);
  }

  /** Another model from the next request on; `window`: its context window (default: kept). */
  switchTo(provider: ModelProvider, window = this.window): void {
    this.current = provider;
    this.window = window;
  }
}
