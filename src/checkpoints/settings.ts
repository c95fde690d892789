/** The `checkpoints` key of a settings file: this folder's fragment of the settings schema (src/settings/). */
import { schemaParts, type Zod } from "../config/schema-parts.js";

/** Snapshots of the project around calls that may change files, for /rewind (default true). */
export function checkpointSettingsSchema(z: Zod) {
  return schemaParts(z).flag();
}
