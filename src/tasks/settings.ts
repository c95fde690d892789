/** The `taskBoard` key of a settings file: this folder's fragment of the settings schema (src/settings/). */
import type { Zod } from "../config/schema-parts.js";
import { expected } from "../text/schema-messages.js";

const TASK_BOARD_SETTINGS = ["auto", "on", "off"] as const;
export type TaskBoardSetting = (typeof TASK_BOARD_SETTINGS)[number];

/**
 * The task board tools (task_create, task_update, task_list, task_get). auto (default):
 * offered when the project's board has tasks or someone can answer questions (an
 * interactive session), so one-shot scripted runs keep their first request small.
 */
export function taskBoardSettingsSchema(z: Zod) {
  return z.enum(TASK_BOARD_SETTINGS, { error: expected("auto, on or off") });
}
