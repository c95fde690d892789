import * as z from "zod";

/**
 * Claude Code's JSON answer on a hook's stdout (exit 0 only). Every field is optional; a
 * stdout that is not a JSON object is plain text, as in Claude Code.
 */
const hookJsonSchema = z.object({
  /** false: stop the run after this hook; `stopReason` is shown to the user. */
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  /** Hide the hook's stdout from `--verbose`. */
  suppressOutput: z.boolean().optional(),
  /** A message shown to the user (not the model). */
  systemMessage: z.string().optional(),
  /** `block` (PostToolUse, Stop, SubagentStop, UserPromptSubmit, and the older PreToolUse form); `approve` = allow. */
  decision: z.enum(["block", "approve"]).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .object({
      hookEventName: z.string().optional(),
      permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
      permissionDecisionReason: z.string().optional(),
      /** PreToolUse (and PermissionRequest's decision): the call's input replaced, in Claude Code's fields. */
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
      /** PermissionRequest: the answer to the question the user would have been asked. */
      decision: z
        .object({
          behavior: z.enum(["allow", "deny"]),
          updatedInput: z.record(z.string(), z.unknown()).optional(),
          message: z.string().optional(),
          interrupt: z.boolean().optional(),
        })
        .optional(),
    })
    .optional(),
});

type HookJsonOutput = z.infer<typeof hookJsonSchema>;

export type ParsedHookStdout =
  | { kind: "text"; text: string }
  | { kind: "json"; output: HookJsonOutput }
  /** An object that does not match the shape; `problem` names the field. */
  | { kind: "invalid"; problem: string };

/** Reads a hook's stdout: Claude Code's JSON object, or plain text. */
export function parseHookStdout(stdout: string): ParsedHookStdout {
  const text = stdout.trim();
  if (!text.startsWith("{")) return { kind: "text", text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "text", text };
  }
  const parsed = hookJsonSchema.safeParse(value);
  if (parsed.success) return { kind: "json", output: parsed.data };
  const issue = parsed.error.issues[0];
  return { kind: "invalid", problem: `${issue.path.join(".") || "output"}: ${issue.message}` };
}
