import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ToolOutput } from "../../src/core/tool.js";
import { discoverSkills } from "../../src/skills/discover.js";
import { expandSkillInvocation } from "../../src/skills/invoke.js";
import { createLoadSkillTool } from "../../src/skills/load-skill-tool.js";
import { LoadedSkills } from "../../src/skills/loaded-skills.js";
import type { Skill } from "../../src/skills/types.js";
import { closestName } from "../../src/text/suggest.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { Workspace } from "../../src/tools/workspace.js";
import { tempDir } from "../support/temp-dir.js";
import { fakeSkill, writeSkill } from "./helpers.js";

function setup(skills?: Skill[]) {
  const workspace = new Workspace(tempDir("hx-ws-"));
  const allowed: string[] = [];
  const original = workspace.allowRead.bind(workspace);
  workspace.allowRead = (dir: string) => {
    allowed.push(dir);
    return original(dir);
  };
  const loaded = new LoadedSkills(workspace);
  const list = skills ?? ["agent-builder", "code-review", "mcp-builder", "pdf"].map((n) => fakeSkill(n));
  const tool = createLoadSkillTool({ skills: list, loaded });
  const ctx: ToolContext = {
    workspace,
    signal: new AbortController().signal,
    callId: "call_1",
    emit: () => {},
  };
  const call = async (args: unknown): Promise<ToolOutput> => {
    const registry = new ToolRegistry([tool]);
    const prepared = await registry.prepare({
      id: "call_1",
      name: "load_skill",
      arguments: JSON.stringify(args),
    });
    if (!prepared.ok) return { content: prepared.error, isError: true };
    return registry.run(prepared, ctx);
  };
  return { tool, call, allowed, loaded, workspace };
}

describe("load_skill", () => {
  it("is a name-only tool with effect read (it only reads instructions; runs with other reads)", async () => {
    const { tool } = setup();
    expect(tool.name).toBe("load_skill");
    expect(tool.effect).toBe("read");
    const registry = new ToolRegistry([tool]);
    await registry.ready();
    const schema = registry.schemas()[0].parameters;
    expect(schema).toMatchObject({ type: "object", required: ["name"] });
  });

  it("returns the body wrapped in <skill name>, the base directory and other files; allows reading the folder", async () => {
    const root = tempDir();
    const dir = writeSkill(
      root,
      "agent-builder",
      "name: agent-builder\ndescription: |\n  Build agents.\n  Use when asked.",
      "# Agent builder\nDo it.\n",
    );
    mkdirSync(path.join(dir, "references"));
    writeFileSync(path.join(dir, "references", "api.md"), "x");
    mkdirSync(path.join(dir, "scripts"));
    writeFileSync(path.join(dir, "scripts", "run.py"), "x");
    const { skills } = discoverSkills({ cwd: root, homeDir: root, extraPaths: ["."] });
    const { call, allowed, loaded, workspace } = setup(skills);
    const result = await call({ name: "agent-builder" });
    expect(result.isError).toBeFalsy();
    expect(
      result.content.startsWith('<skill name="agent-builder">\n# Agent builder\nDo it.\n</skill>\n\n'),
    ).toBe(true);
    expect(result.content).toContain(`Base directory for this skill: ${dir}`);
    expect(result.content).toContain("- references/api.md\n- scripts/run.py");
    expect(result.content).not.toContain("- SKILL.md");
    expect(allowed).toEqual([dir]);
    expect(workspace.resolveForRead(path.join(dir, "references", "api.md"))).toContain("api.md");
    expect(loaded.names()).toEqual(["agent-builder"]);
  });

  it("caps the file list", async () => {
    const root = tempDir();
    const dir = writeSkill(root, "big", "name: big\ndescription: d");
    for (let i = 0; i < 60; i++) writeFileSync(path.join(dir, `f${String(i).padStart(2, "0")}.md`), "x");
    const { skills } = discoverSkills({ cwd: root, homeDir: root, extraPaths: ["."] });
    const result = await setup(skills).call({ name: "big" });
    expect(result.content).toContain("- … and 20 more");
  });

  it("answers an empty name with the seed's message", async () => {
    const { call } = setup();
    for (const name of ["", "   "]) {
      expect(await call({ name })).toEqual({
        content: "Error: load_skill.name must be a non-empty string",
        isError: true,
      });
    }
  });

  it("lists the available skills for an unknown name (the seed's 'react' experiment)", async () => {
    const { call } = setup();
    expect((await call({ name: "react" })).content).toBe(
      "Error: Unknown skill 'react'. Available: agent-builder, code-review, mcp-builder, pdf",
    );
  });

  it("puts the closest match first", async () => {
    const { call } = setup();
    expect((await call({ name: "code-reveiw" })).content).toBe(
      "Error: Unknown skill 'code-reveiw'. Available: code-review, agent-builder, mcp-builder, pdf",
    );
    expect((await call({ name: "mcp" })).content).toMatch(/Available: mcp-builder, /);
    expect(closestName("review", ["code-review", "pdf"])).toBe("code-review");
    expect(closestName("x", ["code-review", "pdf"])).toBeUndefined();
  });

  it("refuses path-like names", async () => {
    const { call, allowed } = setup();
    for (const name of ["../pdf", "/etc/passwd", "skills/pdf", ".agents", "pdf/SKILL.md", "~/x", "pdf\\x"]) {
      const result = await call({ name });
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(
        new RegExp(`^Error: Unknown skill '${name.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")}'\\. Available: `),
      );
    }
    expect(allowed).toEqual([]);
  });

  it("returns a one-line note for a skill already loaded in this conversation", async () => {
    const { call } = setup();
    const first = await call({ name: "pdf" });
    expect(first.content).toContain('<skill name="pdf">');
    const second = await call({ name: "pdf" });
    expect(second.content).not.toContain("<skill");
    expect(second.content.split("\n")).toHaveLength(1);
    expect(second.content).toMatch(/already loaded/);
  });

  it("matches a unique case-insensitive name", async () => {
    const { call } = setup();
    expect((await call({ name: "PDF" })).content).toContain('<skill name="pdf">');
  });

  it("does not load disable-model-invocation skills", async () => {
    const { call } = setup([fakeSkill("manual", "m", { disableModelInvocation: true }), fakeSkill("auto")]);
    const result = await call({ name: "manual" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/only be invoked by the user \(\/manual\)/);
    expect((await call({ name: "nope" })).content).toBe("Error: Unknown skill 'nope'. Available: auto");
  });
});

describe("expandSkillInvocation", () => {
  const skills = [fakeSkill("deploy"), fakeSkill("manual", "m", { disableModelInvocation: true })];

  it("turns `/name args` into the skill body plus the request", () => {
    const loaded = new LoadedSkills();
    const invocation = expandSkillInvocation("/deploy to staging please", skills, loaded);
    expect(invocation?.skill.name).toBe("deploy");
    expect(invocation?.args).toBe("to staging please");
    expect(invocation?.text.startsWith('<skill name="deploy">\n# deploy\nSteps.\n</skill>')).toBe(true);
    expect(invocation?.text.endsWith("with this request:\nto staging please")).toBe(true);
    expect(loaded.has("deploy")).toBe(true);
  });

  it("works without args and for disable-model-invocation skills", () => {
    expect(expandSkillInvocation("/manual", skills)?.text).toMatch(
      /invoked the skill \/manual\. Follow its instructions\.$/,
    );
  });

  it("leaves other prompts and unknown commands alone", () => {
    expect(expandSkillInvocation("/exit", skills)).toBeUndefined();
    expect(expandSkillInvocation("deploy now", skills)).toBeUndefined();
    expect(expandSkillInvocation("/ deploy", skills)).toBeUndefined();
  });
});
