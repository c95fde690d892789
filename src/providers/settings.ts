/**
 * The model keys of a settings file (`provider`, `model`, `baseURL`, `thinking`): this folder's
 * fragment of the settings schema, composed in src/settings/.
 */
import { schemaParts, type Zod } from "../config/schema-parts.js";
import { expected } from "../text/schema-messages.js";
import { providerNames } from "./registry.js";

export function providerSettingsSchema(z: Zod) {
  const { text, flag } = schemaParts(z);
  return {
    provider: z.enum(providerNames() as [string, ...string[]], {
      error: expected(`one of ${providerNames().join(", ")}`),
    }),
    model: text("a model name"),
    baseURL: text("an http(s) URL"),
    thinking: flag(),
  };
}
