/** The `contextWindow` key of a settings file: this folder's fragment of the settings schema (src/settings/). */
import { schemaParts, type Zod } from "../config/schema-parts.js";
import { MIN_CONTEXT_WINDOW } from "../providers/context-windows.js";

export function contextWindowSettingsSchema(z: Zod) {
  return schemaParts(z).wholeNumber(
    `a whole number of tokens, at least ${MIN_CONTEXT_WINDOW}`,
    MIN_CONTEXT_WINDOW,
  );
}
