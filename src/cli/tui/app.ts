import { realpathSync } from "node:fs";
import path from "node:path";
import {
  KeybindingsManager,
  setKeybindings,
  TUI_KEYBINDINGS,
} from "@mariozechner/pi-tui/dist/keybindings.js";
import { matchesKey } from "@mariozechner/pi-tui/dist/keys.js";
import { interactiveCommands, nextPermissionMode } from "../interactive-commands.js";
import type { RunFlags } from "../run-config.js";
import { sessionEndLines } from "../run-outcome.js";
import { PromptCompletions } from "./completions.js";
import { FullScreen } from "./full-screen.js";
import { HistorySearch } from "./history-search.js";
import { PromptHistory } from "./prompt-history.js";
import { ScreenSession } from "./screen-session.js";
import {
  type KeyContext,
  type KeyEffect,
  pressKey,
  type ScreenKey,
  showConversation,
  showLine,
} from "./screen-state.js";
import { createTheme } from "./theme.js";
import { TurnRunner } from "./turns.js";

/** The command Esc Esc runs: the list of user turns to go back to. */
const REWIND_COMMAND = "/rewind";

/** The parts of the full screen, made before the first draw. */
interface App {
  screen: FullScreen;
  sessions: ScreenSession;
  runner: TurnRunner;
  history: PromptHistory;
  completions: PromptCompletions;
}

/**
 * The full-screen interactive session (pi-tui): the conversation above, the prompt editor
 * below it, a status line at the bottom. Only loaded on a real terminal.
 */
export async function runFullScreen(flags: RunFlags, firstPrompt?: string): Promise<number> {
  const app = createApp(path.resolve(flags.cwd ?? process.cwd()));
  app.screen.start();
  // Let the first frame out before the settings and the session's modules load.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await openSession(app, flags, firstPrompt);
  const { screen, runner, sessions } = app;
  await runner.exited;
  screen.stop();
  const session = sessions.current();
  await session.close();
  for (const line of sessionEndLines(session)) process.stdout.write(`${screen.theme.muted(line)}\n`);
  return 0;
}

function createApp(cwd: string): App {
  // Alt+Enter too, for terminals that do not report Shift+Enter.
  setKeybindings(
    new KeybindingsManager(TUI_KEYBINDINGS, { "tui.input.newLine": ["shift+enter", "alt+enter"] }),
  );
  const sessions = new ScreenSession();
  const screen = new FullScreen(createTheme(), cwd, (name, args) =>
    sessions.session?.previewCall(name, args),
  );
  const history = PromptHistory.open(cwd);
  for (const entry of history.entries) screen.editor.addToHistory(entry);
  const log = (line: string) => {
    showLine(screen.state, "info", line);
    screen.update();
  };
  const runner = new TurnRunner(screen, sessions, log);
  const parts = { screen, sessions, history, runner };
  const app: App = { ...parts, completions: setUpCompletions(parts) };
  screen.editor.onSubmit = (text) => submit(app, text);
  screen.tui.addInputListener((data) => onKey(app, data));
  return app;
}

/** A prompt or command typed and sent: kept in the history, run now or queued. */
function submit(app: App, text: string): void {
  if (!text.trim()) return;
  app.history.add(text);
  app.screen.editor.addToHistory(text);
  app.runner.send(text);
}

/** Completion works from the first frame: paths at once, commands and skills once the session is open. */
function setUpCompletions(app: Omit<App, "completions">): PromptCompletions {
  const { screen, sessions, runner } = app;
  const names = () => {
    const session = sessions.session;
    if (!session) return [];
    const commands = interactiveCommands(runner.host)
      .filter((c) => c.name !== "quit")
      .map((c) => ({ name: c.name, description: c.description, argumentHint: c.argumentHint }));
    const skills = session.skills.map((s) => ({
      name: s.name,
      description: s.description.split("\n")[0],
      argumentHint: s.argumentHint,
    }));
    return [...commands, ...skills];
  };
  const completions = new PromptCompletions(realPathOr(screen.cwd), names);
  screen.editor.setAutocompleteProvider(completions);
  return completions;
}

/** The key a terminal's bytes are, of those the screen answers itself. */
function screenKey(data: string): ScreenKey {
  if (data === "\x1b\x1b") return "escape-escape";
  const keys = ["escape", "ctrl+c", "ctrl+d", "shift+tab", "ctrl+o", "ctrl+r"] as const;
  return keys.find((key) => matchesKey(data, key)) ?? "other";
}

/** Keys before the focused component sees them: the state decides, this carries it out. */
function onKey(app: App, data: string): { consume: true } | undefined {
  const { editor } = app.screen;
  const context = { draft: editor.getText(), completing: editor.isShowingAutocomplete(), now: Date.now() };
  if (matchesKey(data, "tab") && completeAtOnce(app, context)) return { consume: true };
  const effect = pressKey(app.screen.state, screenKey(data), context);
  if (effect === "pass") return undefined;
  carryOut(app, effect);
  return { consume: true };
}

/** Tab before the editor's list has come: a command alone in matching is completed at once. */
function completeAtOnce(app: App, context: KeyContext): boolean {
  const { editor, state } = app.screen;
  if (context.completing || state.input !== "editor") return false;
  if (editor.getCursor().col !== context.draft.length) return false;
  const completed = app.completions.completeAlone(context.draft);
  if (completed) editor.setText(completed);
  return completed !== undefined;
}

function carryOut(app: App, effect: Exclude<KeyEffect, "pass">): void {
  const { screen, runner, sessions } = app;
  switch (effect) {
    case "interrupt":
      runner.interrupt();
      return;
    case "clear-draft":
      screen.editor.setText("");
      screen.update();
      return;
    case "leave":
      runner.leave();
      return;
    case "hint":
      screen.update();
      return;
    case "cycle-mode": {
      const session = sessions.session;
      if (session) session.permissions.set(nextPermissionMode(session.permissions.mode));
      runner.refresh();
      return;
    }
    case "redraw-all":
      screen.redrawAll();
      return;
    case "history-search":
      openHistorySearch(app);
      return;
    case "rewind":
      openRewind(app);
      return;
  }
}

/**
 * Esc Esc: `/rewind`'s list of turns, not kept in the prompt history (the keys opened it, nobody
 * typed it). A session without checkpoints has no `/rewind`: one line says why.
 */
function openRewind(app: App): void {
  const session = app.sessions.session;
  if (!session) return;
  if (session.commands.some((command) => command.name === REWIND_COMMAND.slice(1))) {
    app.runner.send(REWIND_COMMAND);
    return;
  }
  showLine(
    app.screen.state,
    "info",
    'Nothing to rewind: checkpoints are off in this session (settings "checkpoints": false, or a session that is not saved).',
  );
  app.screen.update();
}

/** Ctrl-R: the history search in the prompt's place; what it finds goes into the prompt. */
function openHistorySearch(app: App): void {
  const { screen } = app;
  const search = new HistorySearch(app.history, screen.theme, (text) => {
    if (text !== undefined) screen.editor.setText(text);
    screen.showEditor();
  });
  screen.show(search, "search");
}

/**
 * The start after the first draw: the settings, the provider's SDK, the session. A start that
 * cannot go on (no key, bad settings) leaves the screen and hx with the message: nothing could
 * answer a prompt.
 */
async function openSession(app: App, flags: RunFlags, firstPrompt: string | undefined): Promise<void> {
  const { screen, sessions, runner } = app;
  const startedAt = Date.now();
  const leave = async (error: unknown): Promise<never> => {
    await closeScreen(screen, startedAt);
    throw error;
  };
  try {
    const { createInteractiveSetup } = await import("../interactive-setup.js");
    sessions.setup = await createInteractiveSetup(flags, firstPrompt, runner.openers());
  } catch (error) {
    return leave(error);
  }
  const { resolved } = sessions.setup;
  screen.state.headerModel = `${resolved.config.provider}/${resolved.model}`;
  runner.refresh();
  loadRenderers(screen);
  try {
    // Loaded after the first draw: the session's modules are most of start-up.
    sessions.session = await sessions.setup.openSession(runner.openers());
  } catch (error) {
    return leave(error);
  }
  sessionOpened(app, firstPrompt);
}

function sessionOpened(app: App, firstPrompt: string | undefined): void {
  const { screen, runner } = app;
  const session = app.sessions.current();
  if (session.conversation.messages.length > 0) showConversation(screen.state, session.conversation.messages);
  // Probes the sandbox (a few ms) so the status line says what holds commands in.
  void session.sandbox?.check().then(() => runner.refresh());
  runner.refresh();
  if (firstPrompt) submit(app, firstPrompt);
  else runner.startQueue();
}

/** Markdown and code highlighting load after the first draw; until then answers are plain text. */
function loadRenderers(screen: FullScreen): void {
  void import("./markdown-view.js").then(({ markdownFactory }) => {
    screen.markdown.factory = markdownFactory(screen.theme);
    screen.update();
  });
  void import("./highlight.js").then(
    ({ createHighlighter }) => screen.theme.setHighlighter(createHighlighter(screen.theme)),
    () => {},
  );
}

/**
 * pi-tui probes the keyboard protocol for this long after start and would switch the terminal's
 * key mode on after a stop that came sooner.
 */
const KEYBOARD_PROBE_MS = 200;

/** Stops the screen once pi-tui's keyboard probe is over. */
async function closeScreen(screen: FullScreen, startedAt: number): Promise<void> {
  const wait = KEYBOARD_PROBE_MS - (Date.now() - startedAt);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  screen.stop();
}

/** The real path of `dir`, or `dir` when it cannot be resolved (the settings step reports that). */
function realPathOr(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
