// The JSON Schemas of the built-in tools' parameters, as the registry derives them from zod
// (src/tools/json-schema.ts). scripts/build.mjs bundles and runs this file, and defines the
// result as __HX_TOOL_SCHEMAS__ (src/tools/built-schemas.ts), so a built hx sends the schemas
// without loading zod. A tool whose `jsonSchema` is `builtSchema(key)` needs its key here.
import type { ZodType } from "zod";
import { bashKillParameters } from "../src/background/bash-kill-tool.js";
import { bashOutputParameters } from "../src/background/bash-output-tool.js";
import { exitPlanModeParameters } from "../src/plan/exit-plan-mode-tool.js";
import { loadSkillParameters } from "../src/skills/load-skill-tool.js";
import { taskParameters } from "../src/subagent/task-tool.js";
import { taskCreateParameters } from "../src/tasks/task-create-tool.js";
import { taskGetParameters } from "../src/tasks/task-get-tool.js";
import { taskListParameters } from "../src/tasks/task-list-tool.js";
import { taskUpdateParameters } from "../src/tasks/task-update-tool.js";
import { todoWriteParameters } from "../src/todo/todo-write-tool.js";
import { bashParameters } from "../src/tools/bash.js";
import { editFileParameters } from "../src/tools/edit-file.js";
import { globParameters } from "../src/tools/glob.js";
import { grepParameters } from "../src/tools/grep.js";
import { toParametersSchema } from "../src/tools/json-schema.js";
import { readFileParameters } from "../src/tools/read-file.js";
import type { Zod } from "../src/tools/tool.js";
import { writeFileParameters } from "../src/tools/write-file.js";
import * as z from "../src/tools/zod-for-tools.js";

export const BUILT_IN_PARAMETERS: Record<string, (zod: Zod) => ZodType> = {
  bash: bashParameters,
  read_file: readFileParameters,
  write_file: writeFileParameters,
  edit_file: editFileParameters,
  glob: globParameters,
  grep: grepParameters,
  todo_write: todoWriteParameters,
  task: taskParameters,
  load_skill: loadSkillParameters,
  task_create: taskCreateParameters,
  task_update: taskUpdateParameters,
  task_list: taskListParameters,
  task_get: taskGetParameters,
  bash_output: bashOutputParameters,
  bash_kill: bashKillParameters,
  exit_plan_mode: exitPlanModeParameters,
};

export function builtInToolSchemas(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(BUILT_IN_PARAMETERS).map(([key, parameters]) => [
      key,
      toParametersSchema(parameters(z), z),
    ]),
  );
}
