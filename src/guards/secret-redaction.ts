import type { LoopExtension } from "../agent/extension.js";
import { redactUrlPasswords } from "../secrets/redact.js";

/**
 * Replaces known secret values (API keys from hx's environment) in tool output before the
 * model, the transcript or a spill file sees it. Catches what the scrubbed child environment
 * cannot: a command reading `/proc/$PPID/environ`, a key pasted into a file, a hook's output.
 */
export function createSecretRedaction(
  secrets: ReadonlyArray<{ name: string; value: string }>,
): LoopExtension {
  const known = secrets.filter((secret) => secret.value.length >= 8);
  return {
    name: "secret-redaction",
    afterToolCall(_prepared, output) {
      let content = output.content;
      for (const secret of known) {
        if (content.includes(secret.value))
          content = content.split(secret.value).join(`[${secret.name} redacted]`);
      }
      const redacted = redactUrlPasswords(content);
      return redacted === output.content ? undefined : { ...output, content: redacted };
    },
  };
}
