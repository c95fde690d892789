/**
 * The `skills` key of a settings file: this folder's fragment of the settings schema
 * (composed in src/settings/) and how files layer.
 */
import type * as z from "zod";
import { concatLists, type MergeRule } from "../config/merge.js";
import { schemaParts, type Zod } from "../config/schema-parts.js";
import { expected } from "../text/schema-messages.js";

/** `skills: { paths, catalogBudget, watch }`. */
export function skillSettingsSchema(z: Zod) {
  const { text } = schemaParts(z);
  return z.object(
    {
      /** Extra folders to search for skills. */
      paths: z.array(text("a folder path"), { error: expected("a list of folder paths") }).optional(),
      /** Catalog budget as a share of the context window (0.02 = 2%), or an absolute char count. */
      catalogBudget: z
        .number({ error: expected("a number (0.02 = 2% of the window, or characters)") })
        .refine((value) => value >= 0, { error: expected("a number of 0 or more") })
        .optional(),
      /** Watch the skill folders and tell the model about added, removed and changed skills (default true). */
      watch: z.boolean({ error: expected("true or false") }).optional(),
    },
    { error: expected("an object with paths, catalogBudget and watch") },
  );
}

export type SkillSettings = z.infer<ReturnType<typeof skillSettingsSchema>>;

/** Skill folders add up over the files; a nearer file's budget and watch switch win. */
export const mergeSkillSettings: MergeRule<SkillSettings> = (current, next) => ({
  catalogBudget: next.catalogBudget ?? current?.catalogBudget,
  watch: next.watch ?? current?.watch,
  paths: concatLists(current?.paths, next.paths),
});
