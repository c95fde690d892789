import { FIRED_EVENTS, type HookEventName, isHookEvent, MATCHED_FIELD, TOOL_EVENTS } from "./events.js";
import { compileMatcher } from "./matcher.js";
import type { HookMatcher } from "./settings.js";

/** One command hook, ready to run. */
export interface ConfiguredHook {
  event: HookEventName;
  command: string;
  timeoutMs: number;
  /** The matcher as written, for messages. */
  matcher: string;
  /** Whether the hook runs for a tool (or a `source`, `trigger`…) known by these names. */
  matches: (names: readonly string[]) => boolean;
  /** Extra environment of the hook (a plugin's `CLAUDE_PLUGIN_ROOT`). */
  env?: Record<string, string>;
  /** Where it comes from, for messages: a plugin's name; undefined for settings files. */
  origin?: string;
}

/** Where a group of hooks comes from: a plugin brings its name and environment. */
export interface HookOrigin {
  name: string;
  env: Record<string, string>;
}

const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;
/** Timeouts are clamped to [1 s, 10 min]: a huge value must not overflow into "no wait at all". */
const MIN_HOOK_TIMEOUT_SECONDS = 1;
const MAX_HOOK_TIMEOUT_SECONDS = 600;

/** The hooks from settings, by event. Built once per session; bad entries are skipped with a warning. */
export class HookRegistry {
  private constructor(private readonly byEvent: Map<HookEventName, ConfiguredHook[]>) {}

  static empty(): HookRegistry {
    return new HookRegistry(new Map());
  }

  /** The hooks of several registries (settings, then each approved plugin). */
  static merge(registries: HookRegistry[]): HookRegistry {
    const byEvent = new Map<HookEventName, ConfiguredHook[]>();
    for (const registry of registries)
      for (const [event, hooks] of registry.byEvent)
        byEvent.set(event, [...(byEvent.get(event) ?? []), ...hooks]);
    return new HookRegistry(byEvent);
  }

  /** Whether any hook is registered for `event` (to skip building a payload nobody reads). */
  has(event: HookEventName): boolean {
    return (this.byEvent.get(event)?.length ?? 0) > 0;
  }

  /** Reads `settings.hooks` in Claude Code's shape: `{ Event: [{ matcher, hooks: [{ type, command, timeout }] }] }`. */
  static fromSettings(
    hooks: Partial<Record<string, HookMatcher[]>> | undefined,
    origin?: HookOrigin,
  ): {
    registry: HookRegistry;
    warnings: string[];
  } {
    const byEvent = new Map<HookEventName, ConfiguredHook[]>();
    const warnings: string[] = [];
    const where = origin ? `plugin ${origin.name}: ` : "";
    for (const [event, groups] of Object.entries(hooks ?? {})) {
      if (!isHookEvent(event)) {
        warnings.push(`${where}hooks.${event}: not a hook event hx knows; its hooks never run.`);
        continue;
      }
      if (!FIRED_EVENTS.has(event)) {
        warnings.push(`${where}hooks.${event}: hx has no ${event} moment; its hooks never run.`);
        continue;
      }
      if (!Array.isArray(groups)) {
        warnings.push(`hooks.${event} must be a list of { matcher, hooks }; ignored.`);
        continue;
      }
      const list = byEvent.get(event) ?? [];
      for (const group of groups) {
        const matcherText = typeof group?.matcher === "string" ? group.matcher : "";
        const matched = TOOL_EVENTS.has(event) || MATCHED_FIELD[event] !== undefined;
        const compiled = compileMatcher(matched ? matcherText : undefined);
        if (typeof compiled !== "function") {
          warnings.push(`hooks.${event}: ${compiled.error}; ignored.`);
          continue;
        }
        for (const hook of Array.isArray(group?.hooks) ? group.hooks : []) {
          if (hook?.type !== "command" || typeof hook.command !== "string" || hook.command.trim() === "") {
            const kind =
              typeof hook?.type === "string" && hook.type !== "command" ? `a "${hook.type}" hook` : "a hook";
            warnings.push(
              `${where}hooks.${event}: ${kind} was ignored; hx runs only { "type": "command", "command": "..." } hooks.`,
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
            ...(origin ? { env: origin.env, origin: origin.name } : {}),
          });
        }
      }
      byEvent.set(event, list);
    }
    return { registry: new HookRegistry(byEvent), warnings };
  }

  /** The hooks to run for an event (and the names its matcher is matched against), each command once. */
  hooksFor(event: HookEventName, names?: readonly string[]): ConfiguredHook[] {
    const seen = new Set<string>();
    return (this.byEvent.get(event) ?? []).filter((hook) => {
      if (names !== undefined && !hook.matches(names)) return false;
      const key = `${hook.origin ?? ""}\0${hook.command}`;
      if (seen.has(key)) return false;
      seen.add(key);
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
