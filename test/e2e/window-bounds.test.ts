// End to end: sizes are bounded by the context window. A window below the minimum is a usage
// error; a task, a skill or project instructions too large for the window are cut or saved to
// a file with a note (never sent whole); a task on stdin above the cap is refused.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

let work: string;
beforeEach(() => {
  work = tempDir("hx-window-");
});

function script(replies: unknown[]): string {
  const file = path.join(tempDir("hx-window-script-"), "script.json");
  writeFileSync(file, JSON.stringify({ replies }));
  return file;
}

const agent = (
  replies: unknown[],
  extra: string[],
  options: { input?: string; env?: Record<string, string> } = {},
) =>
  runHx(["agent", ...extra, "-C", work, "--provider", "scripted", "--script", script(replies)], {
    cwd: work,
    ...options,
  });

describe("the context window's minimum", () => {
  it("--context-window 1, HX_CONTEXT_WINDOW=100 and a tiny contextWindow in settings are usage errors (exit 2)", async () => {
    const flag = await agent([{ text: "never" }], ["go", "--context-window", "1"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("hx: --context-window is 1 tokens; hx needs at least 4096");
    const env = await agent([{ text: "never" }], ["go"], { env: { HX_CONTEXT_WINDOW: "100" } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("hx: HX_CONTEXT_WINDOW is 100 tokens; hx needs at least 4096");
    mkdirSync(path.join(work, ".hx"));
    writeFileSync(path.join(work, ".hx", "settings.json"), JSON.stringify({ contextWindow: 1000 }));
    const settings = await agent([{ text: "never" }], ["go"]);
    expect(settings.code).toBe(2);
    expect(settings.stderr).toContain(
      "hx: .hx/settings.json: contextWindow: must be a whole number of tokens, at least 4096, got a number (1000)",
    );
  });
});

describe("what cannot fit is cut or saved with a note", () => {
  it("a task of megabytes on stdin is saved to a file the model is told to read", async () => {
    const task = `Summarise this log.\n${"2026-01-01 INFO request served in 3 ms\n".repeat(20_000)}`;
    const run = await agent(
      [{ expect: "The task continues", text: "will read it" }],
      ["-", "--context-window", "8k"],
      { input: task },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("will read it");
    expect(run.stderr).toMatch(
      /the task is ~[\d,]+ tokens, more than a quarter of the 8,000-token context window; saved to \.hx\/input\/task-/,
    );
    const [saved] = readdirSync(path.join(work, ".hx", "input"));
    expect(readFileSync(path.join(work, ".hx", "input", saved), "utf8")).toBe(task.trim());
  });

  it("a task on stdin over 1 MB is refused with the reason (exit 2)", async () => {
    const run = await agent([{ text: "never" }], ["-"], { input: "x".repeat(2 * 1024 * 1024) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("hx: piped input is over 1 MB.");
  });

  it("a skill too large for the window is cut, saved, and the user warned; one over a quarter gets a note", async () => {
    const skills = path.join(work, ".agents", "skills");
    const body = (n: number) => `${"Follow step after step carefully.\n".repeat(n)}`;
    for (const [name, lines] of [
      // Under the 1 MB cap on a SKILL.md (a larger one is skipped at discovery).
      ["huge", 28_000],
      ["big", 330],
    ] as const) {
      mkdirSync(path.join(skills, name), { recursive: true });
      writeFileSync(
        path.join(skills, name, "SKILL.md"),
        `---\nname: ${name}\ndescription: A ${name} skill.\n---\n${body(lines)}`,
      );
    }
    const huge = await agent(
      [
        { toolCalls: [{ name: "load_skill", arguments: { name: "huge" } }] },
        { expect: "does not fit in your 8,000-token context window", text: "ok" },
      ],
      ["use the huge skill", "--context-window", "8k"],
    );
    expect(huge.stderr).not.toMatch(/expected the request/);
    expect(huge.code).toBe(0);
    expect(huge.stderr).toMatch(
      /skill huge is ~[\d,]+ tokens, too large for the 8,000-token context window; the model sees its first part and reads the rest from \.hx\/tool-results\//,
    );
    const big = await agent(
      [
        { toolCalls: [{ name: "load_skill", arguments: { name: "big" } }] },
        { expect: "more than a quarter of your 8,000-token context window", text: "ok" },
      ],
      ["use the big skill", "--context-window", "8k"],
    );
    expect(big.stderr).not.toMatch(/expected the request/);
    expect(big.code).toBe(0);
    expect(big.stderr).toMatch(
      /skill big is ~[\d,]+ tokens, more than a quarter of the 8,000-token context window/,
    );
    const saved = readdirSync(path.join(work, ".hx", "tool-results"));
    expect(saved).toHaveLength(1);
    expect(readFileSync(path.join(work, ".hx", "tool-results", saved[0]), "utf8")).toContain(
      body(28_000).trim(),
    );
  });

  it("a tool result over a quarter of the window is saved to a file, the model gets a preview", async () => {
    writeFileSync(path.join(work, "notes.txt"), "a line of notes to read\n".repeat(1_500));
    const run = await agent(
      [
        { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
        { expect: "Output too long for the conversation", text: "ok" },
      ],
      ["read the notes", "--context-window", "8k"],
    );
    expect(run.stderr).not.toMatch(/expected the request/);
    expect(run.code).toBe(0);
    expect(readdirSync(path.join(work, ".hx", "tool-results"))).toHaveLength(1);
  });

  it("project instructions are cut to a quarter of the window, with a warning", async () => {
    writeFileSync(path.join(work, "AGENTS.md"), "Always write tests.\n".repeat(2_000));
    const run = await agent(
      [{ expect: "instructions cut at 8000 characters", text: "ok" }],
      ["go", "--context-window", "8k"],
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("were cut to 8,000 characters to fit the context window");
    expect(existsSync(path.join(work, "AGENTS.md"))).toBe(true);
  });
});
