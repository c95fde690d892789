import { emptyUsage } from "../../core/messages.js";
import type { AgentSession } from "../../session/agent-session.js";
import type { InteractiveSetup } from "../interactive-setup.js";
import type { SessionFacts } from "./screen-state.js";

/**
 * The settings and the session behind the full screen. Both load after the first draw (typing
 * can start at once); /clear replaces the session.
 */
export class ScreenSession {
  setup?: InteractiveSetup;
  session?: AgentSession;

  /** The settings, once read. */
  ready(): InteractiveSetup {
    if (!this.setup) throw new Error("hx is still starting");
    return this.setup;
  }

  /** The open session. */
  current(): AgentSession {
    if (!this.session) throw new Error("the session is not open yet");
    return this.session;
  }

  /** What the status line says of the session; before it is open, what the configuration says. */
  facts(): SessionFacts | undefined {
    const { setup, session } = this;
    if (!setup) return undefined;
    return {
      model: session?.model.model ?? setup.resolved.model,
      mode: session?.permissions.mode ?? setup.resolved.config.permissionMode ?? "default",
      sandbox: session?.sandbox?.status(),
      contextWindow: session?.model.contextWindow ?? setup.resolved.contextWindow,
      usage: session?.total.usage ?? emptyUsage(),
      prices: setup.prices,
    };
  }
}
