// Questions the session asks the person, drawn in the prompt's place: an approval, a plan to
// carry out, one line of free text (an MCP server's form, field by field).
import { Input } from "@mariozechner/pi-tui/dist/components/input.js";
import { Text } from "@mariozechner/pi-tui/dist/components/text.js";
import { Container } from "@mariozechner/pi-tui/dist/tui.js";
import type { PermissionAnswer, PermissionAsker } from "../../permissions/index.js";
import type { PlanAnswer, PlanAsker } from "../../plan/index.js";
import { answerFor, editsChoice, type QuestionChoice, questionChoices } from "../permission-choices.js";
import { PLAN_CHOICES, type PlanChoice } from "../plan-choices.js";
import type { FullScreen } from "./full-screen.js";
import { permissionBody, type QuestionOptions, QuestionPrompt } from "./question-prompt.js";
import type { ScreenSession } from "./screen-session.js";
import { showLine } from "./screen-state.js";
import { screenText } from "./screen-text.js";

export interface Askers {
  ask: PermissionAsker;
  askPlan: PlanAsker;
  askLine: (question: string, signal: AbortSignal) => Promise<string | undefined>;
}

/** What the questions need of the rest of the app. */
export interface QuestionHooks {
  /** Stops the running turn (Esc or Ctrl-C at a question). */
  interrupt(): void;
  /** The session's facts changed (a mode chosen at a question). */
  refresh(): void;
}

/**
 * Calls `settle` once: on the first of an answer or the signal's abort, then the prompt editor
 * comes back.
 */
function settleOnce<A>(
  screen: FullScreen,
  signal: AbortSignal,
  onAbort: A,
  resolve: (value: A) => void,
): (value: A) => void {
  let settled = false;
  const settle = (value: A) => {
    if (settled) return;
    settled = true;
    signal.removeEventListener("abort", aborted);
    screen.showEditor();
    resolve(value);
  };
  const aborted = () => settle(onAbort);
  signal.addEventListener("abort", aborted, { once: true });
  return settle;
}

/**
 * Shows a question until a choice is made; `onCancel`: the answer when the run is cancelled or
 * Esc / Ctrl-C declines (which also stops the turn).
 */
function showQuestion<C extends string, A>(
  screen: FullScreen,
  hooks: QuestionHooks,
  question: { options: Omit<QuestionOptions<C>, "maxBodyLines">; signal: AbortSignal; onCancel: A },
  answer: (choice: C, text?: string) => A,
): Promise<A> {
  const { tui, editor, theme } = screen;
  const { options, signal, onCancel } = question;
  return new Promise<A>((resolve) => {
    const settle = settleOnce(screen, signal, onCancel, resolve);
    // The rest of the screen's rows go to the body, less the question's own lines.
    const maxBodyLines = () => Math.max(4, tui.terminal.rows - 8 - options.choices.length);
    const prompt = new QuestionPrompt({ ...options, maxBodyLines }, theme, {
      choose: (choice, text) => settle(answer(choice, text)),
      cancel: () => {
        settle(onCancel);
        hooks.interrupt();
      },
      passThrough: (data) => editor.handleInput(data),
      draft: () => editor.getText(),
      requestRender: () => tui.requestRender(),
    });
    screen.show(prompt, "question");
  });
}

function askPermission(screen: FullScreen, sessions: ScreenSession, hooks: QuestionHooks): PermissionAsker {
  const { theme } = screen;
  return (request) => {
    const session = sessions.session;
    const context = session ? editsChoice(session.permissions, () => hooks.refresh()) : {};
    const options = {
      body: permissionBody(request, theme),
      choices: questionChoices(request, context),
      text: {
        choice: "instead" as const,
        title: `${theme.c.bold(`Not running ${screenText(request.rule)}.`)} What should the model do instead?`,
        hint: "Enter: send it with the refusal · Esc: back to the choices · Ctrl-C: no, and stop the turn",
      },
    };
    return showQuestion<QuestionChoice, PermissionAnswer>(
      screen,
      hooks,
      { options, signal: request.signal, onCancel: "no" },
      (choice, text) => answerFor(choice, context, text),
    );
  };
}

function askPlan(screen: FullScreen, hooks: QuestionHooks): PlanAsker {
  const { theme, markdown } = screen;
  return (plan, signal) => {
    const options = {
      body: (width: number) => [
        theme.c.bold("The model's plan:"),
        ...markdown.render(plan, width),
        "",
        theme.c.bold("Carry it out?"),
      ],
      choices: PLAN_CHOICES,
      text: {
        choice: "revise" as const,
        title: `${theme.c.bold("Keep planning.")} What should change in the plan?`,
        hint: "Enter: send it to the model · Esc: back to the choices · Ctrl-C: stop the turn",
      },
    };
    const onCancel: PlanAnswer = { kind: "revise", feedback: "" };
    return showQuestion<PlanChoice, PlanAnswer>(
      screen,
      hooks,
      { options, signal, onCancel },
      (choice, text) => {
        if (choice === "revise") return { kind: "revise", feedback: text?.trim() ?? "" };
        // The status line shows the new mode once the tool has set it.
        setTimeout(() => hooks.refresh(), 0);
        return { kind: "approve", mode: choice };
      },
    );
  };
}

function askLine(screen: FullScreen): Askers["askLine"] {
  return (question, signal) =>
    new Promise<string | undefined>((resolve) => {
      const settle = settleOnce<string | undefined>(screen, signal, undefined, (value) => {
        if (value !== undefined) showLine(screen.state, "info", `${question}${value}`);
        resolve(value);
      });
      const input = new Input();
      input.onSubmit = (value) => settle(value);
      input.onEscape = () => settle(undefined);
      const box = new Container();
      box.addChild(new Text(screen.theme.accent(screenText(question)), 0, 0));
      box.addChild(input);
      screen.show(box, "line", input);
    });
}

/** The askers the session is opened with. */
export function createAskers(screen: FullScreen, sessions: ScreenSession, hooks: QuestionHooks): Askers {
  return {
    ask: askPermission(screen, sessions, hooks),
    askPlan: askPlan(screen, hooks),
    askLine: askLine(screen),
  };
}
