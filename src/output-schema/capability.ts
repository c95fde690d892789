import type { Capability } from "../agent/capability.js";
import type { LoopExtension } from "../agent/extension.js";

/** The final answer checked against the schema: the parsed value, or why it does not fit. */
export type SchemaVerdict = { ok: true; value: unknown } | { ok: false; error: string };

export interface OutputSchemaCapability extends Capability {
  /** Checks a final answer (the front end checks the last one with it). */
  check(text: string): SchemaVerdict;
}

/** How often the model is sent back to fix an answer that does not fit. */
const REASKS = 1;

/**
 * `--output-schema FILE`: the final answer must be one JSON value valid against a JSON Schema.
 * The model is told in the system prompt; an answer that does not fit is sent back once with
 * the validation errors (an `onStop` extension, so the loop stays unaware of it). Throws when
 * the schema itself cannot be used; zod (which compiles it) loads only here.
 */
export async function setUpOutputSchema(schema: Record<string, unknown>): Promise<OutputSchemaCapability> {
  const z = await import("zod");
  let validator: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } };
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new Error(`the schema cannot be used: ${error instanceof Error ? error.message : String(error)}`);
  }
  const check = (text: string): SchemaVerdict => {
    const json = unfenced(text);
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return { ok: false, error: "the answer is not JSON" };
    }
    const parsed = validator.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data };
    return { ok: false, error: formatIssues(parsed.error) };
  };
  let reasked = 0;
  const extension: LoopExtension = {
    name: "output-schema",
    onStop(finalText) {
      const verdict = check(finalText);
      if (verdict.ok || reasked >= REASKS) return undefined;
      reasked += 1;
      return [
        `Your final answer does not match the required JSON Schema: ${verdict.error}.`,
        "Answer again with only the JSON value (no prose, no code fence), valid against the schema.",
      ].join("\n");
    },
  };
  const section = [
    "# Final answer format",
    "Your final answer must be one JSON value, valid against this JSON Schema, and nothing else (no prose around it, no code fence):",
    JSON.stringify(schema),
  ].join("\n");
  return { name: "output-schema", extensions: [extension], promptSections: [section], check };
}

/** The text inside a ```json fence when the whole answer is one; the answer otherwise. */
function unfenced(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```[a-zA-Z]*\n([\s\S]*?)\n```$/.exec(trimmed);
  return fenced ? fenced[1]! : trimmed;
}

function formatIssues(error: unknown): string {
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues ?? [];
  if (issues.length === 0) return String(error);
  return issues
    .slice(0, 10)
    .map(
      (issue) => `${issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)"}: ${issue.message}`,
    )
    .join("; ");
}
