/**
 * Stands in for the SDK's `validation/ajv-provider.js` in hx's bundle (see scripts/build.mjs).
 * hx gives the SDK client its own validator (tool output is read as content, not checked), so
 * the SDK's default, Ajv with its formats, is never used; bundling it would cost every session
 * with an MCP server ~50 ms of start-up to load a validator nobody calls.
 */
export class AjvJsonSchemaValidator {
  getValidator<T>(_schema: unknown) {
    return (input: unknown) => ({ valid: true as const, data: input as T, errorMessage: undefined });
  }
}
