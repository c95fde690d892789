import type { PermissionAnswer, PermissionMode, PermissionRequest } from "../permissions/index.js";

/** What the user can answer to an approval question (both front ends offer the same). */
export type QuestionChoice = "yes" | "allowEdits" | "always" | "no" | "instead";

/** One answer a question offers. */
export interface PromptChoiceLike<C extends string> {
  choice: C;
  /** The key that picks it. */
  key: string;
  label: string;
}

export type ChoiceOption = PromptChoiceLike<QuestionChoice>;

/** Where the front end answers from: what it can change besides the answer. */
export interface ChoiceContext {
  /** Switches the session to acceptEdits; absent: the choice is not offered (`hx agent`). */
  allowEdits?: () => void;
}

/**
 * "Allow all edits this session" from the default mode (acceptEdits already allows them; plan
 * mode refuses them): switches the session to acceptEdits; `changed` shows it.
 */
export function editsChoice(
  permissions: { readonly mode: PermissionMode; set(mode: PermissionMode): void },
  changed?: () => void,
): ChoiceContext {
  if (permissions.mode !== "default") return {};
  return {
    allowEdits: () => {
      permissions.set("acceptEdits");
      changed?.();
    },
  };
}

/**
 * The choices for one question, in order: yes once; yes and allow every edit this session (a
 * file change, when the session can switch to acceptEdits); yes always, naming the exact rules
 * it saves (offered only when a rule can cover the call); no; no, and tell the model what to
 * do instead.
 */
export function questionChoices(request: PermissionRequest, context: ChoiceContext): ChoiceOption[] {
  const options: ChoiceOption[] = [{ choice: "yes", key: "y", label: request.labels?.yes ?? "Yes" }];
  if (request.effect === "write" && context.allowEdits)
    options.push({
      choice: "allowEdits",
      key: "e",
      label: "Yes, and allow all edits this session (acceptEdits)",
    });
  const rules = request.alwaysRules;
  if (rules === undefined) options.push({ choice: "always", key: "a", label: "Yes, always" });
  else if (rules.length > 0)
    options.push({
      choice: "always",
      key: "a",
      label: request.labels?.always ?? `Yes, always: save ${rules.join(", ")}`,
    });
  options.push({ choice: "no", key: "n", label: "No" });
  options.push({ choice: "instead", key: "t", label: "No, and tell the model what to do instead" });
  return options;
}

/** The answer the permission check gets for a choice (`instead`: with the text typed). */
export function answerFor(choice: QuestionChoice, context: ChoiceContext, instead = ""): PermissionAnswer {
  switch (choice) {
    case "yes":
      return "yes";
    case "allowEdits":
      context.allowEdits?.();
      return "yes";
    case "always":
      return "always";
    case "no":
      return "no";
    case "instead":
      return instead.trim() ? { instead: instead.trim() } : "no";
  }
}

/**
 * The line-mode question: `Allow bash(git status)? [y] yes  [a] yes, always: save bash(git
 * status)  [n] no  (or type what the model should do instead) `.
 */
export function formatLineQuestion(request: PermissionRequest, context: ChoiceContext): string {
  const keys = questionChoices(request, context)
    .filter((option) => option.choice !== "instead")
    .map((option) => `[${option.key}] ${option.label.charAt(0).toLowerCase()}${option.label.slice(1)}`);
  return `${questionText(request)} ${keys.join("  ")}  (or type what the model should do instead) `;
}

/** The question itself: `Allow bash(git status)?`, or the request's own (a re-run offer). */
export function questionText(request: PermissionRequest): string {
  return request.question ?? `Allow ${request.rule}?`;
}

/**
 * Reads a line-mode answer: a choice's key or its first word (`y`, `yes`, `a`, `always`, `e`,
 * `n`, `no`); an empty line is no; any other text is "no, do this instead".
 */
export function parseLineAnswer(
  line: string | undefined,
  request: PermissionRequest,
  context: ChoiceContext,
): PermissionAnswer {
  const text = (line ?? "").trim();
  const word = text.toLowerCase();
  if (word === "" || word === "n" || word === "no") return "no";
  const offered = questionChoices(request, context);
  const picked = offered.find(
    (option) =>
      option.choice !== "instead" &&
      (word === option.key || word === WORDS[option.choice as Exclude<QuestionChoice, "instead">]),
  );
  if (picked) return answerFor(picked.choice, context);
  return { instead: text };
}

const WORDS: Record<Exclude<QuestionChoice, "instead">, string> = {
  yes: "yes",
  allowEdits: "edits",
  always: "always",
  no: "no",
};
