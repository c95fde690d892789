import type { ZodType } from "zod";
import type { Zod } from "./tool.js";

/**
 * The JSON Schema the model reads for a tool's zod schema. zod marks every integer with
 * JavaScript's safe-integer bounds, and `min(1)` strings with `minLength: 1`; those say nothing
 * a model needs to call the tool right and cost tokens on every request, so they are dropped
 * (the zod schema still checks them).
 */
export function toParametersSchema(schema: ZodType, zod: Zod): Record<string, unknown> {
  const json = zod.toJSONSchema(schema, {
    target: "draft-7",
    io: "input",
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.type === "string" && jsonSchema.minLength === 1) delete jsonSchema.minLength;
    },
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
