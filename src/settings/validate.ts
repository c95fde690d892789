import type { ValidatedSettings } from "../config/settings.js";
import { validateAgainst } from "../config/validate-settings.js";
import { SETTINGS_KEY_POLICY, type Settings, settingsSchema } from "./schema.js";

/**
 * Checks one settings file's parsed JSON against hx's schema. Wrong types are errors naming the
 * key path and what was expected; unknown keys are warnings with the closest known key, or
 * errors where a misspelling would drop protection (SETTINGS_KEY_POLICY). Never throws.
 */
export function validateSettings(raw: unknown, file: string): ValidatedSettings<Settings> {
  return validateAgainst(settingsSchema, SETTINGS_KEY_POLICY, raw, file);
}
