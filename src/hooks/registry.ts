import type { HookMatcher } from "../config/settings.js";
import { type HookEventName, isHookEvent, TOOL_EVENTS } from "./events.js";
import { compileMatcher } from "./matcher.js";

/** One command hook, ready to run. */
export interface ConfiguredHook {
  event: HookEventName;
  command: string;
  timeoutMs: number;
  /** The matcher as written, for messages. */
  matcher: string;
  matches: (tool: string) => boolean;
}

export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;
/** Timeouts are clamped to [1 s, 10 min]: a huge value must not overflow into "no wait at all". */
export const MIN_HOOK_TIMEOUT_SECONDS = 1;
export const MAX_HOOK_TIMEOUT_SECONDS = 600;

/** The hooks from settings, by event. Built once per session; bad entries are skipped with a warning. */
export class HookRegistry {
  private constructor(private readonly byEvent: Map<HookEventName, ConfiguredHook[]>) {}

  static empty(): HookRegistry {
    return new HookRegistry(new Map());
  }

  /** Reads `settings.hooks` in Claude Code's shape: `{ Event: [{ matcher, hooks: [{ type, command, timeout }] }] }`. */
  static fromSettings(hooks: Partial<Record<string, HookMatcher[]>> | undefined): {
    registry: HookRegistry;
    warnings: string[];
  } {
    const byEvent = new Map<HookEventName, ConfiguredHook[]>();
    const warnings: string[] = [];
    for (const [event, groups] of Object.entries(hooks ?? {})) {
      if (!isHookEvent(event)) {
        warnings.push(`hooks.${event}: unknown hook event; ignored.`);
        continue;
      }
      if (!Array.isArray(groups)) {
        warnings.push(`hooks.${event} must be a list of { matcher, hooks }; ignored.`);
        continue;
      }
      const list = byEvent.get(event) ?? [];
      for (const group of groups) {
        const matcherText = typeof group?.matcher === "string" ? group.matcher : "";
        const compiled = compileMatcher(TOOL_EVENTS.has(event) ? matcherText : undefined);
        if (typeof compiled !== "function") {
          warnings.push(`hooks.${event}: ${compiled.error}; ignored.`);
          continue;
        }
        for (const hook of Array.isArray(group?.hooks) ? group.hooks : []) {
          if (hook?.type !== "command" || typeof hook.command !== "string" || hook.command.trim() === "") {
            warnings.push(
              `hooks.${event}: only { "type": "command", "command": "..." } hooks are supported; one was ignored.`,
            );
            continue;
          }
          const seconds = hookTimeoutSeconds(hook.timeout, `hooks.${event}: \`${hook.command}\``, warnings);
          list.push({
            event,
            command: hook.command,
            timeoutMs: seconds * 1000,
            matcher: matcherText,
            matches: compiled,
          });
        }
      }
      byEvent.set(event, list);
    }
    return { registry: new HookRegistry(byEvent), warnings };
  }

  /** The hooks to run for an event (and tool), each command once. */
  hooksFor(event: HookEventName, tool?: string): ConfiguredHook[] {
    const seen = new Set<string>();
    return (this.byEvent.get(event) ?? []).filter((hook) => {
      if (tool !== undefined && !hook.matches(tool)) return false;
      if (seen.has(hook.command)) return false;
      seen.add(hook.command);
      return true;
    });
  }
}

/** The timeout of one hook in seconds: the default when missing, clamped to [1, 600] with a warning. */
function hookTimeoutSeconds(value: unknown, label: string, warnings: string[]): number {
  if (value === undefined) return DEFAULT_HOOK_TIMEOUT_SECONDS;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    warnings.push(
      `${label}: timeout must be a number of seconds (got ${JSON.stringify(value)}); using ${DEFAULT_HOOK_TIMEOUT_SECONDS} s.`,
    );
    return DEFAULT_HOOK_TIMEOUT_SECONDS;
  }
  if (value > MAX_HOOK_TIMEOUT_SECONDS) {
    warnings.push(
      `${label}: timeout ${value} s is above the ${MAX_HOOK_TIMEOUT_SECONDS} s maximum; using ${MAX_HOOK_TIMEOUT_SECONDS} s.`,
    );
    return MAX_HOOK_TIMEOUT_SECONDS;
  }
  return Math.max(MIN_HOOK_TIMEOUT_SECONDS, value);
}
