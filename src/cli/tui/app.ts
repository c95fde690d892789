import { realpathSync } from "node:fs";
import path from "node:path";
import { Editor } from "@mariozechner/pi-tui/dist/components/editor.js";
import { Input } from "@mariozechner/pi-tui/dist/components/input.js";
import { Loader } from "@mariozechner/pi-tui/dist/components/loader.js";
import { Text } from "@mariozechner/pi-tui/dist/components/text.js";
import {
  KeybindingsManager,
  setKeybindings,
  TUI_KEYBINDINGS,
} from "@mariozechner/pi-tui/dist/keybindings.js";
import { matchesKey } from "@mariozechner/pi-tui/dist/keys.js";
import { ProcessTerminal } from "@mariozechner/pi-tui/dist/terminal.js";
import { type Component, Container, TUI } from "@mariozechner/pi-tui/dist/tui.js";
import { truncateToWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui/dist/utils.js";
import { errorMessage } from "../../core/error-message.js";
import type { AgentEvent } from "../../core/events.js";
import { addUsage, emptyUsage, type Usage } from "../../core/messages.js";
import type { PermissionAnswer, PermissionAsker } from "../../permissions/ask.js";
import type { PermissionMode } from "../../permissions/modes.js";
import type { PlanAnswer, PlanAsker } from "../../plan/exit-plan-mode-tool.js";
import type { AgentSession, SessionRunResult } from "../../session/agent-session.js";
import { type InteractiveHost, interactiveCommands, nextPermissionMode } from "../interactive-commands.js";
import type { InteractiveSetup } from "../interactive-setup.js";
import type { PendingContext } from "../interactive-turn.js";
import { answerFor, editsChoice, type QuestionChoice, questionChoices } from "../permission-choices.js";
import { PLAN_CHOICES, type PlanChoice } from "../plan-choices.js";
import type { RunFlags } from "../run-config.js";
import { runOutcomeLines, sessionEndLines } from "../run-outcome.js";
import { compact, formatStatusLine } from "../session-status.js";
import { VERSION } from "../version.js";
import { ChatLog } from "./chat-log.js";
import { PromptCompletions } from "./completions.js";
import { HistorySearch } from "./history-search.js";
import { PromptHistory } from "./prompt-history.js";
import { permissionBody, type QuestionOptions, QuestionPrompt } from "./question-prompt.js";
import { screenText } from "./screen-text.js";
import { createTheme } from "./theme.js";

/** The most often live output (a running command's lines) is drawn. */
const LIVE_RENDER_MS = 100;

/** A running call's output, the session's or a subagent's. */
function isProgress(event: AgentEvent): boolean {
  return event.type === "tool_progress" || (event.type === "subagent" && isProgress(event.event));
}

/** Two Ctrl-C on an empty prompt within this long leave the session. */
const EXIT_CONFIRM_MS = 2000;

/** Every line of its children cut at the screen's width: nothing is ever drawn past the edge. */
class Frame extends Container {
  override render(width: number): string[] {
    return super.render(width).map((line) => truncateToWidth(line, width, "…"));
  }
}

/** One line cut at the screen's width (the status line). */
class StatusBar implements Component {
  private text = "";
  setText(text: string): void {
    this.text = text;
  }
  invalidate(): void {}
  render(width: number): string[] {
    return [truncateToWidth(this.text, width, "…")];
  }
}

/** A slot showing one component at a time (the prompt editor, a question, the history search). */
class Slot extends Container {
  show(component: Component): void {
    this.clear();
    this.addChild(component);
  }
}

/**
 * The full-screen interactive session (pi-tui): the conversation above, the prompt editor
 * below it, a status line at the bottom. Only loaded on a real terminal.
 */
export async function runFullScreen(flags: RunFlags, firstPrompt?: string): Promise<number> {
  // Settings, the model and the session load after the first draw: typing can start at once.
  let setup: InteractiveSetup | undefined;
  const ready = (): InteractiveSetup => {
    if (!setup) throw new Error("hx is still starting");
    return setup;
  };
  const cwd = path.resolve(flags.cwd ?? process.cwd());
  const theme = createTheme();
  // Alt+Enter too, for terminals that do not report Shift+Enter.
  setKeybindings(
    new KeybindingsManager(TUI_KEYBINDINGS, { "tui.input.newLine": ["shift+enter", "alt+enter"] }),
  );

  const tui = new TUI(new ProcessTerminal());
  const frame = new Frame();
  tui.addChild(frame);
  const header = new Text("", 0, 0);
  let session: AgentSession | undefined;
  const chat = new ChatLog(theme, (name, args) => session?.previewCall(name, args));
  const activity = new Container();
  const queuedView = new Text("", 0, 0);
  const slot = new Slot();
  const status = new StatusBar();
  frame.addChild(header);
  frame.addChild(chat);
  frame.addChild(activity);
  frame.addChild(queuedView);
  frame.addChild(slot);
  frame.addChild(status);

  const editor = new Editor(tui, theme.editor, { paddingX: 0 });
  const history = PromptHistory.open(cwd);
  for (const entry of history.entries) editor.addToHistory(entry);

  // Lines logged before the screen is up (warnings while the session is built) are kept.
  const early: string[] = [];
  let started = false;
  const log = (line: string) => {
    if (started) {
      chat.info(line);
      tui.requestRender();
    } else early.push(line);
  };

  // ---- turn state
  let running: AbortController | undefined;
  const queue: string[] = [];
  const pending: PendingContext = { shell: [] };
  let turnStart = 0;
  let turnUsage: Usage = emptyUsage();
  let streamedChars = 0;
  let lastContextTokens = 0;
  let exitRequested = false;
  let lastCtrlC = 0;
  let resolveExit: (() => void) | undefined;
  const exited = new Promise<void>((resolve) => {
    resolveExit = resolve;
  });

  const spinner = new Loader(tui, theme.accent, theme.muted, "");
  spinner.stop(); // a Loader starts animating when made; it runs only while a turn does
  let ticker: NodeJS.Timeout | undefined;
  const spinnerText = () => {
    const seconds = Math.floor((Date.now() - turnStart) / 1000);
    const tokens = turnUsage.outputTokens + Math.round(streamedChars / 4);
    return `Working… ${seconds}s · ${compact(tokens)} tokens · Esc to interrupt`;
  };
  const showSpinner = (on: boolean) => {
    activity.clear();
    if (ticker) clearInterval(ticker);
    ticker = undefined;
    spinner.stop();
    if (!on) return;
    spinner.setMessage(spinnerText());
    activity.addChild(spinner);
    spinner.start();
    ticker = setInterval(() => spinner.setMessage(spinnerText()), 1000);
  };

  const updateStatus = () => {
    if (!setup) {
      status.setText(theme.muted("starting…"));
      return;
    }
    const line = formatStatusLine({
      // Before the session is open, what the configuration says.
      model: session?.model.model ?? setup.resolved.model,
      mode: session?.permissions.mode ?? setup.resolved.config.permissionMode ?? "default",
      sandbox: session?.sandbox?.status(),
      contextTokens: lastContextTokens,
      contextWindow: session?.model.contextWindow ?? setup.resolved.contextWindow,
      usage: addUsage(session?.total.usage ?? emptyUsage(), turnUsage),
      prices: setup.prices,
    });
    status.setText(theme.muted(line));
  };
  const updateQueued = () => {
    queuedView.setText(
      queue.length
        ? queue.map((text) => theme.muted(`⏎ queued: ${screenText(text).split("\n")[0]}`)).join("\n")
        : "",
    );
  };

  // ---- questions (approvals, plans), drawn in the prompt's place
  /**
   * Shows a question until a choice is made; `onCancel`: the answer when the run is cancelled
   * or Esc / Ctrl-C declines (which also stops the turn).
   */
  const showQuestion = <C extends string, A>(
    options: Omit<QuestionOptions<C>, "maxBodyLines">,
    signal: AbortSignal,
    answer: (choice: C, text?: string) => A,
    onCancel: A,
  ): Promise<A> =>
    new Promise<A>((resolve) => {
      let settled = false;
      const settle = (value: A) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        slot.show(editor);
        tui.setFocus(editor);
        if (running) showSpinner(true);
        tui.requestRender();
        resolve(value);
      };
      const onAbort = () => settle(onCancel);
      signal.addEventListener("abort", onAbort, { once: true });
      // The rest of the screen's rows go to the body, less the question's own lines.
      const maxBodyLines = () => Math.max(4, tui.terminal.rows - 8 - options.choices.length);
      const prompt = new QuestionPrompt({ ...options, maxBodyLines }, theme, {
        choose: (choice, text) => settle(answer(choice, text)),
        cancel: () => {
          settle(onCancel);
          running?.abort();
        },
        passThrough: (data) => {
          editor.handleInput(data);
        },
        draft: () => editor.getText(),
        requestRender: () => tui.requestRender(),
      });
      showSpinner(false);
      slot.show(prompt);
      tui.setFocus(prompt);
      tui.requestRender();
    });

  const ask: PermissionAsker = (request) => {
    const context = session ? editsChoice(session.permissions, () => updateStatus()) : {};
    return showQuestion<QuestionChoice, PermissionAnswer>(
      {
        body: permissionBody(request, theme),
        choices: questionChoices(request, context),
        text: {
          choice: "instead",
          title: `${theme.c.bold(`Not running ${screenText(request.rule)}.`)} What should the model do instead?`,
          hint: "Enter: send it with the refusal · Esc: back to the choices · Ctrl-C: no, and stop the turn",
        },
      },
      request.signal,
      (choice, text) => answerFor(choice, context, text),
      "no",
    );
  };

  const askPlan: PlanAsker = (plan, signal) =>
    showQuestion<PlanChoice, PlanAnswer>(
      {
        body: (width) => [
          theme.c.bold("The model's plan:"),
          ...(chat.renderMarkdown(plan, width) ?? wrapTextWithAnsi(screenText(plan), width)),
          "",
          theme.c.bold("Carry it out?"),
        ],
        choices: PLAN_CHOICES,
        text: {
          choice: "revise",
          title: `${theme.c.bold("Keep planning.")} What should change in the plan?`,
          hint: "Enter: send it to the model · Esc: back to the choices · Ctrl-C: stop the turn",
        },
      },
      signal,
      (choice, text) => {
        if (choice === "revise") return { kind: "revise", feedback: text?.trim() ?? "" };
        const answer: PlanAnswer = { kind: "approve", mode: choice };
        // The status line shows the new mode once the tool has set it.
        setTimeout(() => updateStatus(), 0);
        return answer;
      },
      { kind: "revise", feedback: "" },
    );

  // Live output comes in bursts (a command printing 100,000 lines): drawn at most every
  // LIVE_RENDER_MS, so the screen keeps up and the CPU stays with the command.
  let liveRender: NodeJS.Timeout | undefined;
  const renderLive = () => {
    if (liveRender) return;
    liveRender = setTimeout(() => {
      liveRender = undefined;
      tui.requestRender();
    }, LIVE_RENDER_MS);
  };

  // ---- one line of free text (an MCP server's form, field by field), in the prompt's place
  const askLine = (question: string, signal: AbortSignal) =>
    new Promise<string | undefined>((resolve) => {
      let settled = false;
      const box = new Container();
      const input = new Input();
      const settle = (value: string | undefined) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        if (value !== undefined) chat.info(`${screenText(question)}${screenText(value)}`);
        slot.show(editor);
        tui.setFocus(editor);
        if (running) showSpinner(true);
        tui.requestRender();
        resolve(value);
      };
      const onAbort = () => settle(undefined);
      signal.addEventListener("abort", onAbort, { once: true });
      input.onSubmit = (value) => settle(value);
      input.onEscape = () => settle(undefined);
      box.addChild(new Text(theme.accent(screenText(question)), 0, 0));
      box.addChild(input);
      showSpinner(false);
      slot.show(box);
      tui.setFocus(input);
      tui.requestRender();
    });

  const emit = (event: AgentEvent) => {
    chat.handle(event);
    if (isProgress(event)) return renderLive();
    if (event.type === "delta") streamedChars += event.delta.text.length;
    if (event.type === "assistant_message") {
      turnUsage = addUsage(turnUsage, event.usage);
      lastContextTokens = event.usage.inputTokens + event.usage.outputTokens;
      streamedChars = 0;
      updateStatus();
    }
    tui.requestRender();
  };

  const io = (signal: AbortSignal) => ({
    emit,
    signal,
    print: (text: string) => {
      chat.print(text);
      tui.requestRender();
    },
  });

  const host: InteractiveHost = {
    session: () => {
      if (!session) throw new Error("the session is not open yet");
      return session;
    },
    get prices() {
      return ready().prices;
    },
    async newConversation() {
      await session?.close();
      session = await ready().openSession({ log, ask, askLine, askPlan }, { fresh: true });
      lastContextTokens = 0;
      chat.clear();
      updateStatus();
    },
    showConversation: (messages) => {
      chat.showMessages(messages);
      tui.requestRender();
    },
    async sendPrompt(text, signal) {
      reportResult(await host.session().run(text, { emit, signal }));
    },
    switchModel: async (name) => {
      await ready().switchModel(host.session(), name);
      updateStatus();
    },
    modeChanged: () => updateStatus(),
    exit: () => {
      exitRequested = true;
    },
    keys: [
      ["Enter", "send (while a turn runs: queue it)"],
      ["Shift+Enter, Alt+Enter, \\ Enter", "new line"],
      ["Esc, Ctrl-C", "cancel the running turn (at a question: decline and stop)"],
      ["Ctrl-C twice, Ctrl-D", "leave (on an empty prompt)"],
      ["Shift+Tab", "permission mode: default → acceptEdits → plan"],
      ["Ctrl-O", "expand or collapse tool output"],
      ["Ctrl-R", "search prompt history"],
      ["Tab", "complete commands, skills, paths"],
    ],
  };

  const reportResult = (result: SessionRunResult) => {
    for (const line of runOutcomeLines(result)) chat[line.level](line.text);
  };

  const processQueue = async () => {
    while (queue.length > 0 && !exitRequested) {
      const text = queue.shift() ?? "";
      updateQueued();
      chat.addUser(text);
      running = new AbortController();
      turnStart = Date.now();
      turnUsage = emptyUsage();
      streamedChars = 0;
      showSpinner(true);
      tui.requestRender();
      try {
        const { runSubmission } = await import("../interactive-turn.js");
        const result = await runSubmission(host, text, io(running.signal), pending);
        if (result) reportResult(result);
      } catch (error) {
        chat.error(`error: ${errorMessage(error)}`);
      }
      running = undefined;
      turnUsage = emptyUsage();
      showSpinner(false);
      updateStatus();
      tui.requestRender();
    }
    if (exitRequested) resolveExit?.();
  };

  const submit = (text: string) => {
    if (!text.trim()) return;
    history.add(text);
    editor.addToHistory(text);
    queue.push(text);
    updateQueued();
    if (!running && session) void processQueue();
    else tui.requestRender();
  };
  editor.onSubmit = submit;

  const cycleMode = () => {
    if (!session) return;
    const next: PermissionMode = nextPermissionMode(session.permissions.mode);
    session.permissions.set(next);
    updateStatus();
    tui.requestRender();
  };

  tui.addInputListener((data) => {
    const focused = slot.children[0];
    if (focused !== editor) return undefined; // a question or the history search has the keys
    if (matchesKey(data, "escape") && running && !editor.isShowingAutocomplete()) {
      running.abort();
      return { consume: true };
    }
    if (matchesKey(data, "ctrl+c")) {
      if (running) running.abort();
      else if (editor.getText()) editor.setText("");
      else if (Date.now() - lastCtrlC < EXIT_CONFIRM_MS) {
        exitRequested = true;
        resolveExit?.();
      } else {
        lastCtrlC = Date.now();
        chat.info("Press Ctrl-C again to leave (or Ctrl-D, /exit).");
      }
      tui.requestRender();
      return { consume: true };
    }
    if (matchesKey(data, "ctrl+d") && !editor.getText()) {
      exitRequested = true;
      if (!running) resolveExit?.();
      else running.abort();
      return { consume: true };
    }
    if (matchesKey(data, "shift+tab")) {
      cycleMode();
      return { consume: true };
    }
    if (matchesKey(data, "ctrl+o")) {
      chat.setExpanded(!chat.view.expanded);
      chat.invalidate();
      tui.requestRender(true);
      return { consume: true };
    }
    if (matchesKey(data, "ctrl+r")) {
      const search = new HistorySearch(history, theme, (text) => {
        if (text !== undefined) editor.setText(text);
        slot.show(editor);
        tui.setFocus(editor);
        tui.requestRender();
      });
      slot.show(search);
      tui.setFocus(search);
      tui.requestRender();
      return { consume: true };
    }
    return undefined;
  });

  // ---- start: draw first, then read the settings, load the provider's SDK, open the session.
  const headerText = (model?: string) =>
    `${theme.c.bold("hx")} ${VERSION} · ${model ? `${model} · ` : ""}${screenText(cwd)}\n${theme.muted(
      "/help for commands · Shift+Tab: mode · Esc: interrupt · Ctrl-D: leave",
    )}`;
  header.setText(headerText());
  // Completion works from the first frame: paths at once, commands and skills once the session is open.
  editor.setAutocompleteProvider(
    new PromptCompletions(realPathOr(cwd), () =>
      session
        ? [
            ...interactiveCommands(host)
              .filter((c) => c.name !== "quit")
              .map((c) => ({ name: c.name, description: c.description, argumentHint: c.argumentHint })),
            ...session.skills.map((s) => ({
              name: s.name,
              description: s.description.split("\n")[0],
              argumentHint: s.argumentHint,
            })),
          ]
        : [],
    ),
  );
  slot.show(editor);
  updateStatus();
  tui.setFocus(editor);
  tui.start();
  started = true;
  // Let the first frame out before the settings and the session's modules load.
  await new Promise((resolve) => setTimeout(resolve, 0));
  // A start that cannot go on (no key, bad settings) leaves the screen and hx with the message:
  // nothing could answer a prompt.
  const startedAt = Date.now();
  const leave = async (error: unknown): Promise<never> => {
    showSpinner(false);
    await closeScreen(tui, startedAt);
    throw error;
  };
  try {
    const { createInteractiveSetup } = await import("../interactive-setup.js");
    setup = await createInteractiveSetup(flags, firstPrompt, { ask, log });
  } catch (error) {
    return leave(error);
  }
  header.setText(headerText(`${setup.resolved.config.provider}/${setup.resolved.model}`));
  updateStatus();
  tui.requestRender();
  for (const line of early.splice(0)) chat.info(line);
  // Markdown and code highlighting load after the first draw; until then answers are plain text.
  void import("./markdown-view.js").then(({ markdownFactory }) => {
    chat.setMarkdown(markdownFactory(theme));
    tui.requestRender();
  });
  void import("./highlight.js").then(
    ({ createHighlighter }) => theme.setHighlighter(createHighlighter(theme)),
    () => {},
  );
  let opened: AgentSession;
  try {
    // Loaded after the first draw: the session's modules are most of start-up.
    opened = await setup.openSession({ log, ask, askLine, askPlan });
  } catch (error) {
    return leave(error);
  }
  session = opened;
  if (opened.conversation.messages.length > 0) chat.showMessages(opened.conversation.messages);
  // Probes the sandbox (a few ms) so the status line says what holds commands in.
  void opened.sandbox?.check().then(() => {
    updateStatus();
    tui.requestRender();
  });
  updateStatus();
  tui.requestRender();
  if (firstPrompt) submit(firstPrompt);
  else if (queue.length > 0) void processQueue();

  await exited;
  showSpinner(false);
  tui.stop();
  const finalSession = session;
  await finalSession.close();
  for (const line of sessionEndLines(finalSession)) process.stdout.write(`${theme.muted(line)}\n`);
  return 0;
}

/**
 * pi-tui probes the keyboard protocol for this long after start and would switch the terminal's
 * key mode on after a stop that came sooner.
 */
const KEYBOARD_PROBE_MS = 200;

/** Stops the screen once pi-tui's keyboard probe is over. */
async function closeScreen(tui: TUI, startedAt: number): Promise<void> {
  const wait = KEYBOARD_PROBE_MS - (Date.now() - startedAt);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  tui.stop();
}

/** The real path of `dir`, or `dir` when it cannot be resolved (the settings step reports that). */
function realPathOr(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
