import type { Capability, SessionBasics } from "../agent/capability.js";
import { findProjectRoot } from "../fs/project-root.js";
import { boardFolder, createBoardTools } from "./index.js";
import { renderBoard } from "./render.js";
import type { TaskBoardSetting } from "./settings.js";
import { TaskStore } from "./task-store.js";

/**
 * The project's task board (`.hx/tasks`): the four board tools, `/tasks`, and one line in the
 * system prompt when a previous session left open tasks, so a new session knows to look.
 * `taskBoard: "auto"` (the default) offers it when the board has tasks or the session is
 * interactive; `"on"` always; `"off"` never.
 */
export async function setUpTaskBoard(
  basics: SessionBasics<{ taskBoard?: TaskBoardSetting }>,
  options: { interactive: boolean },
): Promise<Capability> {
  const store = new TaskStore(boardFolder(findProjectRoot(basics.cwd)));
  const setting = basics.settings.taskBoard ?? "auto";
  if (setting === "off") return { name: "tasks" };
  const { tasks, warnings } = await store.read().catch(() => ({ tasks: [], warnings: [] }));
  const offered = setting === "on" || tasks.length > 0 || options.interactive;
  const open = tasks.filter((task) => task.status !== "completed").length;
  return {
    name: "tasks",
    tools: offered ? createBoardTools({ store, onChange: (line) => basics.log(line) }) : [],
    commands: [
      {
        name: "tasks",
        usage: "/tasks",
        description: "show the project's task board",
        async run(_args, io) {
          const board = await store.read();
          io.print(renderBoard(board.tasks));
          for (const warning of board.warnings) io.print(`warning: ${warning}`);
        },
      },
    ],
    promptSections:
      offered && open
        ? [
            `The project's task board has ${open} open task${open === 1 ? "" : "s"} from earlier work; task_list shows them.`,
          ]
        : [],
    warnings: offered ? warnings : [],
  };
}
