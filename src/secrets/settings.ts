/**
 * What commands' environment holds (`env`, and `shell.env.passthrough`, Codex's
 * `shell_environment_policy`): this folder's fragment of the settings schema (composed in
 * src/settings/) and how files layer.
 */
import type * as z from "zod";
import { concatLists, type MergeRule, mergeRecords } from "../config/merge.js";
import { schemaParts, type Zod } from "../config/schema-parts.js";
import { expected } from "../text/schema-messages.js";

/** `env`: environment variables set for commands and hooks (Claude Code's `env`). */
export function envSettingsSchema(z: Zod) {
  const { text } = schemaParts(z);
  return z.record(z.string(), text("a string"), {
    error: expected('an object of names and values such as {"NODE_ENV": "test"}'),
  });
}

/** `shell: { env: { passthrough } }`. */
export function shellSettingsSchema(z: Zod) {
  const { text } = schemaParts(z);
  return z.object(
    {
      env: z
        .object(
          {
            /** Secret-looking variables (`*_API_KEY`, `*_TOKEN`, ...) to pass to commands and hooks anyway. */
            passthrough: z
              .array(text("a variable name"), {
                error: expected('a list of variable names such as ["GITHUB_TOKEN"]'),
              })
              .optional(),
          },
          { error: expected("an object with passthrough") },
        )
        .optional(),
    },
    { error: expected("an object with env") },
  );
}

export type EnvSettings = z.infer<ReturnType<typeof envSettingsSchema>>;
export type ShellSettings = z.infer<ReturnType<typeof shellSettingsSchema>>;

/** Variables add up; a nearer file's value for the same variable wins. */
export const mergeEnvSettings: MergeRule<EnvSettings> = mergeRecords;

/** Passed-through names add up over the files. */
export const mergeShellSettings: MergeRule<ShellSettings> = (current, next) =>
  next.env?.passthrough
    ? { env: { passthrough: concatLists(current?.env?.passthrough, next.env.passthrough) } }
    : current;
