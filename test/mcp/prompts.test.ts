// MCP prompts as slash commands: mapping what the user typed to the declared arguments, and
// the prompt's messages rendered as one user turn.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argumentHint, mapPromptArguments, type PromptArgument } from "../../src/mcp/prompt-arguments.js";
import { renderPromptMessages } from "../../src/mcp/prompts.js";

const review: PromptArgument[] = [
  { name: "file", description: "The file to review", required: true },
  { name: "focus", description: "What to look at" },
];

describe("mapPromptArguments", () => {
  it("fills declared arguments in order, the last one taking the rest of the line", () => {
    expect(mapPromptArguments("src/a.ts error handling and naming", review)).toEqual({
      ok: true,
      values: { file: "src/a.ts", focus: "error handling and naming" },
    });
    expect(mapPromptArguments("src/a.ts", review)).toEqual({ ok: true, values: { file: "src/a.ts" } });
  });

  it("takes name=value for declared names, in any order, and quoted words", () => {
    expect(mapPromptArguments('focus="tests only" file=b.ts', review)).toEqual({
      ok: true,
      values: { focus: "tests only", file: "b.ts" },
    });
    expect(mapPromptArguments("focus=speed 'my file.ts'", review)).toEqual({
      ok: true,
      values: { focus: "speed", file: "my file.ts" },
    });
    // Not a declared name, or quoted before the '=': an ordinary word.
    expect(mapPromptArguments("x=1 '--a=b'", review)).toEqual({
      ok: true,
      values: { file: "x=1", focus: "--a=b" },
    });
  });

  it("names a missing required argument with its description", () => {
    expect(mapPromptArguments("focus=speed", review)).toEqual({
      ok: false,
      error: "needs the argument 'file' (The file to review)",
      missing: "file",
    });
    expect(mapPromptArguments("file=", review)).toMatchObject({ ok: false, missing: "file" });
  });

  it("refuses words a prompt has no argument for", () => {
    expect(mapPromptArguments("anything", [])).toEqual({ ok: false, error: "takes no arguments" });
    expect(mapPromptArguments("file=a focus=b extra", review)).toMatchObject({ ok: false });
    expect(mapPromptArguments("", [])).toEqual({ ok: true, values: {} });
  });

  it("round-trips any values written as quoted name=value pairs", () => {
    const value = fc.string().filter((v) => !v.includes('"'));
    fc.assert(
      fc.property(value, value, (file, focus) => {
        const typed = `focus="${focus}" file="${file}"`;
        const result = mapPromptArguments(typed, review);
        if (file === "") expect(result).toMatchObject({ ok: false, missing: "file" });
        else expect(result).toEqual({ ok: true, values: { file, focus } });
      }),
    );
  });

  it("never throws and only sets declared arguments", () => {
    fc.assert(
      fc.property(fc.string(), (typed) => {
        const result = mapPromptArguments(typed, review);
        if (result.ok) for (const key of Object.keys(result.values)) expect(["file", "focus"]).toContain(key);
      }),
    );
  });

  it("hints required arguments in angle brackets and optional ones in square brackets", () => {
    expect(argumentHint(review)).toBe("<file> [focus]");
    expect(argumentHint([])).toBe("");
  });
});

describe("renderPromptMessages", () => {
  it("passes user text as it is", () => {
    expect(
      renderPromptMessages({
        messages: [
          { role: "user", content: { type: "text", text: "one" } },
          { role: "user", content: { type: "text", text: "two" } },
        ],
      }),
    ).toBe("one\n\ntwo");
  });

  it("labels roles when the prompt holds an exchange, and turns other content into notes", () => {
    const text = renderPromptMessages({
      messages: [
        { role: "user", content: { type: "text", text: "Explain X." } },
        { role: "assistant", content: { type: "text", text: "Start simple." } },
        { role: "user", content: { type: "image", mimeType: "image/png", data: "aGVsbG8=" } },
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: "file:///a.md", mimeType: "text/markdown", text: "# A" },
          },
        },
      ],
    });
    expect(text).toBe(
      [
        "User:\nExplain X.",
        "Assistant:\nStart simple.",
        "User:\n[image: image/png, 5 B; hx passes text only, so the model does not see it]",
        "User:\n[resource file:///a.md (text/markdown)]\n# A",
      ].join("\n\n"),
    );
  });
});
