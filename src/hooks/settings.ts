/**
 * The hook keys of a settings file (`hooks`, `logHooks`, `maxStopHookContinuations`): this
 * folder's fragment of the settings schema (composed in src/settings/) and how files layer.
 */
import type * as z from "zod";
import type { MergeRule } from "../config/merge.js";
import { schemaParts, type Zod } from "../config/schema-parts.js";
import { expected } from "../text/schema-messages.js";
import { HOOK_EVENTS } from "./events.js";
import { compileMatcher } from "./matcher.js";

/** `hooks: { PreToolUse: [{ matcher, hooks: [...] }], ... }`: every Claude Code event is a known key. */
export function hookSettingsSchema(z: Zod) {
  const { text, flag } = schemaParts(z);
  /**
   * One hook. hx runs `"type": "command"` hooks; Claude Code's other kinds (`prompt`, `agent`)
   * are accepted so a copied file loads, and skipped with a warning (hooks/registry.ts).
   */
  const commandHook = z
    .object(
      {
        type: text('"command"'),
        command: text("a shell command").optional(),
        /** Seconds; default 60. */
        timeout: z
          .number({ error: expected("a number of seconds") })
          .refine((value) => value > 0, { error: expected("a number of seconds above 0") })
          .optional(),
        /** Claude Code's `prompt` and `agent` hooks; not run by hx. */
        prompt: text("a prompt").optional(),
        model: text("a model name").optional(),
        /** Claude Code's spinner text and run-in-background flags; accepted, not used. */
        statusMessage: text("a message").optional(),
        async: flag().optional(),
        once: flag().optional(),
      },
      { error: expected('a hook such as { "type": "command", "command": "./check.sh" }') },
    )
    .refine((hook) => hook.type !== "command" || (hook.command ?? "").trim() !== "", {
      error: "a command hook needs a non-empty command",
      path: ["command"],
    });
  const hookGroups = () => {
    const matcher = text("a tool name, `*` or a regular expression").superRefine((value, ctx) => {
      const compiled = compileMatcher(value);
      if (typeof compiled !== "function")
        ctx.addIssue({ code: "custom", message: compiled.error, input: value });
    });
    return z.array(
      z.object(
        {
          /** A tool name, `*`, or alternatives `write_file|edit_file`. Empty or missing = every tool. */
          matcher: matcher.optional(),
          hooks: z.array(commandHook, { error: expected("a list of hooks") }),
        },
        { error: expected('an object such as { "matcher": "bash", "hooks": [...] }') },
      ),
      { error: expected('a list such as [{ "matcher": "bash", "hooks": [...] }]') },
    );
  };
  return z.object(
    Object.fromEntries(HOOK_EVENTS.map((event) => [event, hookGroups().optional()])) as {
      [E in (typeof HOOK_EVENTS)[number]]: z.ZodOptional<ReturnType<typeof hookGroups>>;
    },
    { error: expected("an object of hook events such as PreToolUse") },
  );
}

/** `logHooks`: print the seed's `[HOOK] ...` lines (also on with --verbose). */
export const logHooksSchema = (z: Zod) => schemaParts(z).flag();

/** `maxStopHookContinuations`: how many times Stop hooks may send the model back to work in one prompt (default 100). */
export const maxStopHookContinuationsSchema = (z: Zod) =>
  schemaParts(z).wholeNumber("a whole number of continuations", 0);

export type HookSettings = z.infer<ReturnType<typeof hookSettingsSchema>>;
export type HookMatcher = NonNullable<HookSettings["PreToolUse"]>[number];

/** Each event's hooks add up over the files (every file's hooks run). */
export const mergeHookSettings: MergeRule<HookSettings> = (current = {}, next) => {
  for (const event of Object.keys(next) as Array<keyof HookSettings>) {
    const matchers = next[event];
    if (matchers) current[event] = [...(current[event] ?? []), ...matchers];
  }
  return current;
};

/** An unknown event with no close known one is from a newer Claude Code: a warning, its hooks never run. */
export function newerHookEvent(known: readonly string[]): string {
  return `not a hook event hx knows (${known.join(", ")}); its hooks never run`;
}
