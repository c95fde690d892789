/** What a line typed at the interactive prompt asks for. */
export type InteractiveInput =
  | { kind: "empty" }
  /** `/name args`: a command or a skill (the dispatcher tells them apart). */
  | { kind: "command"; name: string; args: string }
  /** `!cmd`: the user's own shell command (no permission question; in the OS sandbox). */
  | { kind: "shell"; command: string }
  | { kind: "prompt"; text: string };

/**
 * Classifies a submitted input. `/name` counts as a command only when `name` is a word
 * (so a prompt starting with a path, `/etc/hosts is empty?`, is a prompt).
 */
export function classifyInput(raw: string): InteractiveInput {
  const text = raw.trim();
  if (text === "") return { kind: "empty" };
  const command = /^\/([A-Za-z0-9][\w:.-]*)(?:\s+([\s\S]*))?$/.exec(text);
  if (command) return { kind: "command", name: command[1] ?? "", args: (command[2] ?? "").trim() };
  if (text.startsWith("!") && text.slice(1).trim() !== "")
    return { kind: "shell", command: text.slice(1).trim() };
  return { kind: "prompt", text };
}
