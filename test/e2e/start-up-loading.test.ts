// What a run sets up before it needs it costs every start (npm run bench holds a one-turn run
// to 2x a bare node). zod runs only to check a tool call's arguments (or a settings file, an
// MCP config, a hook's JSON answer, a saved transcript); the yaml library loads only for
// frontmatter the fast parser cannot read. Checked through the built binary: which of the
// bundle's sources ran (V8's coverage, mapped through the source map), which packages were
// required (a loader trace), and the schemas the binary sends (computed when it was built)
// against the ones the source derives.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtInToolSchemas } from "../../scripts/tool-schemas.js";
import { coverageEnv, ranPackage, ranSources } from "../support/ran-sources.js";
import { REPO_ROOT } from "../support/run-hx.js";
import { useHarness } from "./harness-support.js";

const h = useHarness();
const PRELOAD = path.join(REPO_ROOT, "test/fixtures/import-trace.mjs");

function traced(file: string) {
  return { NODE_OPTIONS: `--import=${PRELOAD}`, HX_TRACE_IMPORTS: file };
}

const loaded = (file: string) =>
  existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];

const requiresYaml = (file: string) =>
  loaded(file).some((entry) => /^require:.*\/node_modules\/yaml\//.test(entry));

function writeSkill(name: string, frontmatter: string): void {
  const dir = path.join(h.work, ".agents", "skills", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "SKILL.md"), `---\n${frontmatter}\n---\nDo the ${name} thing.\n`);
}

describe("start-up loading", () => {
  it("a run that calls no tool never runs zod; the first tool call does", async () => {
    const plain = path.join(h.work, "plain.txt");
    const plainCoverage = path.join(h.work, "plain-coverage");
    h.server.reply().text("hi");
    const env = { ...traced(plain), ...coverageEnv(plainCoverage) };
    expect((await h.agent("say hi", [], { env })).code).toBe(0);
    const ran = ranSources(plainCoverage);
    expect(ran.has("src/cli/agent-command.ts")).toBe(true);
    expect(ranPackage(ran, "zod")).toBe(false);
    // The Chat Completions request goes through hx's own client: no SDK, no undici.
    expect(loaded(plain).filter((entry) => entry.includes("undici"))).toEqual([]);
    expect(ranPackage(ran, "@anthropic-ai/sdk")).toBe(false);

    writeFileSync(path.join(h.work, "a.txt"), "alpha\n");
    const callCoverage = path.join(h.work, "call-coverage");
    h.server.reply().tool("read_file", { path: "a.txt" });
    h.server.reply().text("read it");
    const run = await h.agent("read a.txt", [], { env: coverageEnv(callCoverage) });
    expect(run.code).toBe(0);
    expect(ranPackage(ranSources(callCoverage), "zod")).toBe(true);
    // The arguments were checked: the file was read and its text went back to the model.
    const toolResult = h.server.requests
      .at(-1)
      ?.body.messages.find((m: { role: string }) => m.role === "tool");
    expect(toolResult.content).toContain("alpha");
  });

  it("still checks a bad tool call's arguments with the zod schema", async () => {
    h.server.reply().tool("read_file", { path: "a.txt", offset: "three" });
    h.server.reply().text("ok");
    expect((await h.agent("read", [])).code).toBe(0);
    const toolResult = h.server.requests
      .at(-1)
      ?.body.messages.find((m: { role: string }) => m.role === "tool");
    expect(toolResult.content).toMatch(/^Error: invalid arguments for read_file: offset: /);
  });

  it("sends the tool schemas computed at build time, equal to the ones the source derives", async () => {
    writeSkill("deploy", "name: deploy\ndescription: Ships the build.");
    // In a git repository with a skill, `task` offers every parameter (isolation, skills).
    execFileSync("git", ["init", "-q"], { cwd: h.work });
    h.server.reply().text("hi");
    expect((await h.agent("hi", [])).code).toBe(0);
    const sent = h.server.requests[0].body.tools as Array<{
      function: { name: string; parameters: unknown };
    }>;
    const expected = builtInToolSchemas();
    const names = sent.map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["bash", "read_file", "todo_write", "task", "load_skill"]));
    for (const tool of sent) expect(tool.function.parameters).toEqual(expected[tool.function.name]);
  });

  it("reads plain frontmatter without the yaml library and loads it for frontmatter that needs it", async () => {
    writeSkill("deploy", "name: deploy\ndescription: Ships the build.");
    const simple = path.join(h.work, "simple.txt");
    h.server.reply().text("hi");
    expect((await h.agent("hi", [], { env: traced(simple) })).code).toBe(0);
    expect(h.server.requests[0].body.messages[0].content).toContain("- deploy: Ships the build.");
    expect(requiresYaml(simple)).toBe(false);

    writeSkill(
      "review",
      "name: review\ndescription: Reviews a change.\nmetadata: {owner: team, tags: [a, b]}",
    );
    const flow = path.join(h.work, "flow.txt");
    h.server.reply().text("hi");
    expect((await h.agent("hi", [], { env: traced(flow) })).code).toBe(0);
    expect(h.server.requests[1].body.messages[0].content).toContain("- review: Reviews a change.");
    expect(requiresYaml(flow)).toBe(true);
  });
});
