import type { ElicitResult, FormAsker, FormField } from "./elicitation.js";

/** Asks one line (the line mode's readline); undefined on end of input or when cancelled. */
export type LineAsker = (question: string, signal: AbortSignal) => Promise<string | undefined>;

type Value = string | number | boolean;

/**
 * A server's form asked one field per line: the server's message, then each field with its
 * type, choices and default (Enter takes the default, or leaves an optional field out), then
 * whether to send the answers. A value that does not fit the field is asked again once; end
 * of input or Ctrl-C cancels the form.
 */
export function lineFormAsker(askLine: LineAsker, print: (line: string) => void): FormAsker {
  return async (form, signal) => {
    print(`MCP server '${form.server}' asks: ${form.message}`);
    const content: Record<string, Value> = {};
    const required = new Set(form.schema.required ?? []);
    for (const [name, field] of Object.entries(form.schema.properties ?? {})) {
      const answer = await askField(name, field, required.has(name), askLine, signal, print);
      if (answer === CANCEL) return { action: "cancel" };
      if (answer !== undefined) content[name] = answer;
    }
    const send = await askLine("Send these answers? [y]es / [n]o (decline) / [c]ancel ", signal);
    const choice = (send ?? "c").trim().toLowerCase();
    if (choice === "y" || choice === "yes" || choice === "") return { action: "accept", content };
    if (choice === "n" || choice === "no") return { action: "decline" };
    return { action: "cancel" } satisfies ElicitResult;
  };
}

const CANCEL = Symbol("cancel");

async function askField(
  name: string,
  field: FormField,
  required: boolean,
  askLine: LineAsker,
  signal: AbortSignal,
  print: (line: string) => void,
): Promise<Value | undefined | typeof CANCEL> {
  const choices = choicesOf(field);
  const about = [field.title && field.title !== name ? field.title : "", field.description ?? ""]
    .filter(Boolean)
    .join(": ");
  const kind = choices
    ? choices.map((c, i) => `${i + 1}) ${c.label}`).join(" ")
    : field.type === "boolean"
      ? "yes/no"
      : (field.type ?? "text");
  const fallback =
    field.default !== undefined
      ? ` [${String(field.default)}]`
      : required
        ? " (required)"
        : " (Enter to skip)";
  for (let attempt = 0; attempt < 2; attempt++) {
    const line = await askLine(`  ${name}${about ? ` (${about})` : ""} ${kind}${fallback}: `, signal);
    if (line === undefined) return CANCEL;
    const text = line.trim();
    if (text === "") {
      if (field.default !== undefined) return field.default as Value;
      if (!required) return undefined;
      print(`  ${name} is required.`);
      continue;
    }
    const value = parseValue(text, field, choices);
    if (value !== undefined) return value;
    print(`  That is not ${choices ? "one of the choices" : `a ${field.type}`}; try again.`);
  }
  return CANCEL;
}

function choicesOf(field: FormField): Array<{ value: Value; label: string }> | undefined {
  if (Array.isArray(field.enum))
    return field.enum.map((value) => ({ value: value as Value, label: String(value) }));
  if (Array.isArray(field.oneOf)) {
    return field.oneOf.map((option) => ({
      value: option.const as Value,
      label: option.title ?? String(option.const),
    }));
  }
  return undefined;
}

function parseValue(
  text: string,
  field: FormField,
  choices?: Array<{ value: Value; label: string }>,
): Value | undefined {
  if (choices) {
    const index = Number(text);
    if (Number.isInteger(index) && index >= 1 && index <= choices.length) return choices[index - 1].value;
    return choices.find((c) => String(c.value) === text || c.label.toLowerCase() === text.toLowerCase())
      ?.value;
  }
  if (field.type === "boolean") {
    const answer = text.toLowerCase();
    if (["y", "yes", "true"].includes(answer)) return true;
    if (["n", "no", "false"].includes(answer)) return false;
    return undefined;
  }
  if (field.type === "number" || field.type === "integer") {
    const number = Number(text);
    if (!Number.isFinite(number) || (field.type === "integer" && !Number.isInteger(number))) return undefined;
    return number;
  }
  return text;
}
