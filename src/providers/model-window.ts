/**
 * The context window a server reports for a model in its model list (`GET …/models`), for
 * models hx's table does not know. Servers name it differently: OpenRouter and Together
 * `context_length`, Groq `context_window`, Mistral and LM Studio `max_context_length`, vLLM
 * `max_model_len`, llama.cpp `meta.n_ctx_train`, Anthropic `max_input_tokens`. Undefined
 * when the model is not listed or no such field is a positive whole number.
 */
export function contextWindowFromModelList(body: unknown, model: string): number | undefined {
  const list = isObject(body) && Array.isArray(body.data) ? body.data : Array.isArray(body) ? body : [];
  const entry = list.find((item: unknown) => isObject(item) && (item.id === model || item.name === model));
  if (!isObject(entry)) return undefined;
  const candidates = [
    entry.context_length,
    entry.context_window,
    entry.max_context_length,
    entry.max_model_len,
    entry.max_input_tokens,
    isObject(entry.top_provider) ? entry.top_provider.context_length : undefined,
    isObject(entry.meta) ? entry.meta.n_ctx_train : undefined,
  ];
  return candidates.find((n): n is number => typeof n === "number" && Number.isInteger(n) && n > 0);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
