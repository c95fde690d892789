import { parseHookStdout } from "./json-output.js";
import type { ConfiguredHook } from "./registry.js";
import { boundHookText, type HookOutcome } from "./runner.js";
import { emptyVerdict, type HookVerdict } from "./verdict.js";

/**
 * Folds the outcomes of one event's hooks. Exit codes first (2 blocks, others warn); on exit 0
 * a JSON object on stdout is read as Claude Code's answer: `decision: "block"` with `reason`,
 * `hookSpecificOutput.permissionDecision` (PreToolUse) with `permissionDecisionReason`,
 * `additionalContext`, `continue: false` with `stopReason`, `systemMessage`.
 */
export function foldOutcomes(hooks: ConfiguredHook[], outcomes: HookOutcome[]): HookVerdict {
  const verdict = emptyVerdict();
  const reasons: string[] = [];
  outcomes.forEach((outcome, index) => {
    const hook = hooks[index];
    const name = `${hook.event} hook \`${hook.command}\`${hook.origin ? ` (plugin ${hook.origin})` : ""}`;
    if (outcome.kind === "block") {
      reasons.push(outcome.stderr || `blocked by the ${name} (it gave no reason on stderr)`);
      return;
    }
    if (outcome.kind === "failure") {
      verdict.warnings.push(`${name} ${outcome.message}; going on.`);
      return;
    }
    if (outcome.stderr) verdict.stderr.push(`${name}: ${outcome.stderr}`);
    const parsed = parseHookStdout(outcome.stdout);
    if (parsed.kind === "text") {
      if (parsed.text) verdict.outputs.push(boundHookText(parsed.text));
      return;
    }
    if (parsed.kind === "invalid") {
      verdict.warnings.push(
        `${name} printed JSON hx cannot read (${parsed.problem}); its answer was ignored.`,
      );
      return;
    }
    const answer = parsed.output;
    if (answer.systemMessage) verdict.messages.push(answer.systemMessage);
    if (answer.continue === false) verdict.stop ??= answer.stopReason || `the ${name} stopped the run`;
    const specific = answer.hookSpecificOutput;
    if (specific?.additionalContext) verdict.context.push(boundHookText(specific.additionalContext));
    if (answer.decision === "block") reasons.push(answer.reason || `blocked by the ${name}`);
    if (hook.event === "PermissionRequest" && specific?.decision) {
      const { behavior, message, updatedInput } = specific.decision;
      if (behavior === "deny") reasons.push(message || `denied by the ${name}`);
      else if (!verdict.answer) verdict.answer = { behavior, message, updatedInput };
      return;
    }
    if (hook.event !== "PreToolUse") return;
    if (specific?.updatedInput && (specific.permissionDecision ?? "allow") !== "deny")
      verdict.updatedInput = { ...verdict.updatedInput, ...specific.updatedInput };
    const permission = specific?.permissionDecision ?? (answer.decision === "approve" ? "allow" : undefined);
    const reason = specific?.permissionDecisionReason || answer.reason || undefined;
    if (permission === "deny") reasons.push(reason || `denied by the ${name}`);
    else if (permission === "ask" || (permission === "allow" && verdict.permission?.decision !== "ask"))
      verdict.permission = { decision: permission, reason };
  });
  if (reasons.length > 0) verdict.blocked = reasons.join("\n");
  return verdict;
}
