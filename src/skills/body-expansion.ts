/**
 * What a skill's body may ask hx to fill in before the model reads it, beyond the arguments
 * (arguments.ts): the skill's folder, and (when the user invokes the skill) the output of
 * `` !`cmd` `` commands, as Claude Code does.
 */

/** `${CLAUDE_SKILL_DIR}` (Claude Code), `${HX_SKILL_DIR}` and `{baseDir}` (pi) → the skill's folder. */
const SKILL_DIR = /\$\{CLAUDE_SKILL_DIR\}|\$\{HX_SKILL_DIR\}|\{baseDir\}/g;

export function substituteSkillDir(body: string, dir: string): string {
  return body.replace(SKILL_DIR, () => dir);
}

/** `` !`cmd` ``: an exclamation mark right before a one-line code span (Claude Code's syntax). */
const SHELL_LINE = /!`([^`\n]+)`/g;

/** The commands of a body's `` !`cmd` `` spans, in order. */
export function shellCommandsIn(body: string): string[] {
  return [...body.matchAll(SHELL_LINE)].map((match) => match[1].trim()).filter((c) => c !== "");
}

/** What became of one `` !`cmd` ``: its output inlined, or why it did not run. */
export type ShellLineOutcome = { output: string } | { notRun: string };

/**
 * Replaces each `` !`cmd` `` span with what `run` gives for it (run in order, one at a time,
 * each span once). A command that did not run leaves `[not run: reason]` in its place.
 */
export async function expandShellLines(
  body: string,
  run: (command: string) => Promise<ShellLineOutcome>,
): Promise<{ text: string; commands: number }> {
  const matches = [...body.matchAll(SHELL_LINE)];
  if (matches.length === 0) return { text: body, commands: 0 };
  let text = "";
  let last = 0;
  for (const match of matches) {
    const command = match[1].trim();
    const outcome = command === "" ? { output: "" } : await run(command);
    text += body.slice(last, match.index);
    text += "output" in outcome ? outcome.output.replace(/\n+$/, "") : `[not run: ${outcome.notRun}]`;
    last = match.index + match[0].length;
  }
  return { text: text + body.slice(last), commands: matches.length };
}
