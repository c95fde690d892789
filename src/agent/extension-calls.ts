import { errorMessage } from "../core/error-message.js";
import type { EventSink } from "../core/events.js";
import { toolErrorText } from "../core/tool.js";
import type { PreparedCall } from "../tools/registry.js";
import type { LoopExtension, LoopState, ToolDecision } from "./extension.js";

/** What calling an extension needs: the extensions, in order, and where a failure is reported. */
export interface ExtensionHost {
  extensions: readonly LoopExtension[];
  emit: EventSink;
}

/** Calls one hook of every extension in order, for its effect. */
export async function callExtensions(
  host: ExtensionHost,
  call: (ext: LoopExtension) => unknown,
  /** Checked before each extension: once true (the run was ended), the rest are not called. */
  stopped: () => boolean = () => false,
): Promise<void> {
  for (const ext of host.extensions) {
    if (stopped()) return;
    await safely(host.emit, ext, () => call(ext));
  }
}

/** The first extension's non-empty answer to a hook, in order; undefined when none answers. */
export async function firstResult<T>(
  host: ExtensionHost,
  call: (ext: LoopExtension) => Promise<T | undefined> | T | undefined,
): Promise<T | undefined> {
  for (const ext of host.extensions) {
    const value = await safely(host.emit, ext, () => call(ext));
    if (value !== undefined && value !== null && value !== "") return value;
  }
  return undefined;
}

/**
 * One extension's verdict on a call. A check that throws blocks the call: what the permission
 * check (or a hook) could not decide is never let through.
 */
export async function checkCall(
  emit: EventSink,
  ext: LoopExtension,
  prepared: PreparedCall,
  state: LoopState,
): Promise<ToolDecision> {
  try {
    return await ext.beforeToolCall?.(prepared, state);
  } catch (error) {
    const reason = reportFailure(emit, ext, error);
    return {
      block: toolErrorText(
        `not run: the ${ext.name} check failed (${reason}), so the call was refused. Try another way, or tell the user.`,
      ),
    };
  }
}

/** Runs one extension hook; a throw becomes a warning event, never a crash. */
export async function safely<T>(
  emit: EventSink,
  ext: LoopExtension,
  fn: () => Promise<T> | T,
): Promise<T | undefined> {
  try {
    return await fn();
  } catch (error) {
    reportFailure(emit, ext, error);
    return undefined;
  }
}

/** Warns that `ext` failed; returns the reason. */
function reportFailure(emit: EventSink, ext: LoopExtension, error: unknown): string {
  const reason = errorMessage(error);
  emit({ type: "notice", level: "warn", text: `extension ${ext.name} failed: ${reason}` });
  return reason;
}
