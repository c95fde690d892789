/**
 * A failure that ended a run, as the user reads it: `message` names the cause, `hint` the
 * fix. Provider errors (`ProviderError`) and the loop's own stops (`RunError`) are both one.
 */
export interface RunFailure {
  readonly kind: string;
  readonly message: string;
  readonly hint?: string;
}

/**
 * The loop stopped on its own (not a provider or configuration problem): its turn limit
 * (`max_turns`), or an extension ended the run (`ended`, e.g. a hook's `continue: false`).
 */
export class RunError extends Error implements RunFailure {
  constructor(
    readonly kind: "max_turns" | "ended",
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = "RunError";
  }
}
