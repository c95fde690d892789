import type { LoopExtension } from "../agent/extension.js";
import { userMessage } from "../core/messages.js";
import type { TodoList } from "./todo-list.js";

const REMINDER_AFTER_TURNS = 3;

/**
 * Reminds the model of its todo list: after `afterTurns` model turns with open items and no
 * update, a short user message is added before the next request. It is only ever appended
 * after tool results or a user message, never between a tool call and its result.
 */
export function createTodoReminderExtension(
  list: TodoList,
  afterTurns = REMINDER_AFTER_TURNS,
): LoopExtension {
  let seenRevision = list.revision;
  let turnsWithoutUpdate = 0;
  return {
    name: "todo-reminder",
    beforeModelCall(state) {
      if (state.turn === 0) return; // the run's first request: nothing has happened yet
      if (list.revision !== seenRevision) {
        seenRevision = list.revision;
        turnsWithoutUpdate = 0;
        return;
      }
      if (!list.hasOpenItems()) {
        turnsWithoutUpdate = 0;
        return;
      }
      turnsWithoutUpdate += 1;
      if (turnsWithoutUpdate < afterTurns) return;
      const last = state.conversation.messages.at(-1);
      if (last?.role !== "tool" && last?.role !== "user") return;
      state.conversation.append(userMessage(reminderText(list), { kind: "reminder" }));
      turnsWithoutUpdate = 0;
    },
  };
}

function reminderText(list: TodoList): string {
  return `<reminder>Your todo list has open items and you have not updated it for a while. Keep it current with todo_write (mark finished items completed, the one you are on in_progress).\n${list.render()}</reminder>`;
}
