// Skill folders and instruction files are protected paths, through the real binary: the model
// cannot write itself a skill with `allowed-tools: Bash` (or new instructions) in acceptEdits
// or bypassPermissions; headless, such writes are refused with the reason.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { toolResultsOf } from "../support/wire.js";
import { useHarness } from "./harness-support.js";

const h = useHarness();
const SKILL = "---\nname: helper\ndescription: Helps.\nallowed-tools: Bash Write Edit\n---\nRun anything.\n";

describe("the model writing skills and instructions", () => {
  it("acceptEdits: write_file .agents/skills/helper/SKILL.md is refused headless; the next session has no such skill", async () => {
    h.server.reply().tool("write_file", { path: ".agents/skills/helper/SKILL.md", content: SKILL });
    h.server
      .reply()
      .tool("edit_file", { path: "AGENTS.md", old_text: "Be careful.", new_text: "Run anything." });
    h.server.reply().text("done");
    writeFileSync(path.join(h.work, "AGENTS.md"), "Be careful.\n");
    const run = await h.agent("make a helper", ["--permission-mode", "acceptEdits"]);
    expect(run.code, run.stderr).toBe(0);
    const [write, edit] = toolResultsOf(h.server.requests.at(-1)!);
    expect(write).toMatch(
      /^Permission denied: write_file\(\.agents\/skills\/helper\/SKILL\.md\) .*protected/,
    );
    expect(edit).toMatch(/^Permission denied: edit_file\(AGENTS\.md\) .*protected/);
    expect(existsSync(path.join(h.work, ".agents/skills/helper/SKILL.md"))).toBe(false);
    expect(readFileSync(path.join(h.work, "AGENTS.md"), "utf8")).toBe("Be careful.\n");
    const list = await runHx(["skills", "list", "-C", h.work]);
    expect(list.stdout).not.toContain("helper");
  });

  it("bypassPermissions: a command line writing a skill, CLAUDE.md or ~/.hx is refused headless", async () => {
    const home = tempDir("hx-home-");
    mkdirSync(path.join(h.work, "pkg"), { recursive: true });
    const lines = [
      "mkdir -p .agents/skills/helper && printf x > .agents/skills/helper/SKILL.md",
      "printf x > pkg/CLAUDE.md",
      `printf '{}' > ${path.join(home, ".hx", "trusted-folders.json")}`,
    ];
    for (const [i, command] of lines.entries()) h.server.reply().tool("bash", { command }, { id: `c${i}` });
    h.server.reply().text("done");
    const run = await h.agent("x", ["--permission-mode", "bypassPermissions"], { env: { HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    const results = toolResultsOf(h.server.requests.at(-1)!);
    expect(results).toHaveLength(3);
    for (const result of results) expect(result).toMatch(/^Permission denied: .*protected/);
    expect(existsSync(path.join(h.work, ".agents/skills/helper/SKILL.md"))).toBe(false);
    expect(existsSync(path.join(h.work, "pkg/CLAUDE.md"))).toBe(false);
    expect(existsSync(path.join(home, ".hx", "trusted-folders.json"))).toBe(false);
  });

  it("hx permissions check names them protected in every mode", async () => {
    for (const mode of ["acceptEdits", "bypassPermissions"]) {
      for (const file of [
        ".agents/skills/deploy/SKILL.md",
        ".claude/skills/deploy/SKILL.md",
        "pkg/AGENTS.md",
      ]) {
        const check = await runHx([
          "permissions",
          "check",
          "--json",
          "--mode",
          mode,
          "-C",
          h.work,
          "write_file",
          file,
        ]);
        expect(JSON.parse(check.stdout), `${mode} ${file}`).toMatchObject({ decision: "ask" });
      }
    }
  });

  it("acceptEdits: a .git file (gitdir pointer) in a subfolder is refused, so a read-only git there cannot run a planted fsmonitor", async () => {
    mkdirSync(path.join(h.work, "sub"), { recursive: true });
    h.server.reply().tool("write_file", { path: "sub/.git", content: "gitdir: ../evil\n" });
    h.server.reply().tool("bash", { command: "printf 'gitdir: ../evil' > sub/.git" });
    h.server.reply().text("done");
    const run = await h.agent("set it up", ["--permission-mode", "acceptEdits"]);
    expect(run.code, run.stderr).toBe(0);
    const [write, command] = toolResultsOf(h.server.requests.at(-1)!);
    expect(write).toMatch(/^Permission denied: write_file\(sub\/\.git\) .*protected/);
    expect(command).toMatch(/^Permission denied: .*sub\/\.git, a protected path/);
    expect(existsSync(path.join(h.work, "sub/.git"))).toBe(false);
  });
});
