import { describe, expect, it } from "vitest";
import { contextWindowFromModelList } from "../../src/providers/model-window.js";

describe("contextWindowFromModelList", () => {
  it("reads the window each kind of server reports for the model asked for", () => {
    const list = (entry: Record<string, unknown>) => ({
      data: [
        { id: "other", context_length: 1 },
        { id: "m", ...entry },
      ],
    });
    expect(contextWindowFromModelList(list({ context_length: 131072 }), "m")).toBe(131072); // OpenRouter, Together
    expect(contextWindowFromModelList(list({ context_window: 8192 }), "m")).toBe(8192); // Groq
    expect(contextWindowFromModelList(list({ max_context_length: 32768 }), "m")).toBe(32768); // Mistral, LM Studio
    expect(contextWindowFromModelList(list({ max_model_len: 65536 }), "m")).toBe(65536); // vLLM
    expect(contextWindowFromModelList(list({ meta: { n_ctx_train: 4096 } }), "m")).toBe(4096); // llama.cpp
    expect(contextWindowFromModelList(list({ top_provider: { context_length: 200000 } }), "m")).toBe(200000);
  });

  it("is undefined for an unlisted model, a list without sizes, or nonsense", () => {
    expect(contextWindowFromModelList({ data: [{ id: "x", context_length: 9 }] }, "m")).toBeUndefined();
    expect(contextWindowFromModelList({ data: [{ id: "m", owned_by: "me" }] }, "m")).toBeUndefined();
    expect(contextWindowFromModelList({ data: [{ id: "m", context_length: "big" }] }, "m")).toBeUndefined();
    expect(contextWindowFromModelList({ data: [{ id: "m", context_length: -5 }] }, "m")).toBeUndefined();
    expect(contextWindowFromModelList("<html>", "m")).toBeUndefined();
    expect(contextWindowFromModelList(null, "m")).toBeUndefined();
  });
});
