/** Says what is wrong with a tool's `structuredContent`, or undefined when it fits the schema. */
export type OutputCheck = (structured: unknown) => string | undefined;

const MAX_ISSUES = 3;

/**
 * A check of `structuredContent` against a tool's `outputSchema` (zod's JSON Schema reader,
 * loaded on the first result of such a tool). A schema zod cannot read is not held against the
 * server: its results pass unchecked.
 */
export async function checkStructuredContent(schema: Record<string, unknown>): Promise<OutputCheck> {
  const z = await import("zod");
  let validator: { safeParse(value: unknown): { success: boolean; error?: { issues: Issue[] } } };
  try {
    const { $schema: _ignored, ...rest } = schema;
    validator = z.fromJSONSchema(rest as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return () => undefined;
  }
  return (structured) => {
    if (structured === undefined) return "it has an outputSchema but sent no structuredContent";
    const parsed = validator.safeParse(structured);
    if (parsed.success) return undefined;
    const issues = parsed.error?.issues ?? [];
    const text = issues
      .slice(0, MAX_ISSUES)
      .map((issue) => `${issue.path.length ? issue.path.join(".") : "(the whole value)"}: ${issue.message}`)
      .join("; ");
    return issues.length > MAX_ISSUES ? `${text}; and ${issues.length - MAX_ISSUES} more` : text;
  };
}

interface Issue {
  path: PropertyKey[];
  message: string;
}
