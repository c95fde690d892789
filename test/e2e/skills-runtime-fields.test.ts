// Claude Code's runtime fields of a skill, through the real binary and the fake model server:
// `context: fork` (with `agent:`), `model:`, `when_to_use`, `${CLAUDE_SKILL_DIR}`/`{baseDir}`,
// `` !`cmd` `` lines (run for a trusted file only, through the shell tool's permission check),
// and the one warning naming the fields hx does not act on.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { BYPASS, toolResultsOf } from "../support/wire.js";
import { KEYS, messagesOf, openaiFlags, toolNamesOf, useSeedFixture, writeSkill } from "./skills-support.js";

const fixture = useSeedFixture();

const userTexts = (request: { body: { messages: unknown[] } }): string =>
  messagesOf(request as never)
    .filter((m) => m.role === "user")
    .map((m) => String(m.content))
    .join("\n---\n");

describe("Claude Code's runtime fields", () => {
  it("context: fork runs the skill in a subagent that sees the body and the arguments, not the parent's history", async () => {
    const { server, project } = fixture;
    writeSkill(
      path.join(project, ".agents", "skills"),
      "forky",
      "name: forky\ndescription: Investigates in a subagent.\ncontext: fork\nagent: Explore\nmodel: fork-model",
      "FORK-BODY: look around and report.",
    );
    const home = tempDir("hx-home-");
    const env = { ...KEYS, HOME: home };
    server.reply().text("PARENT-ANSWER-ONE");
    const first = await runHx(["agent", "PARENT-HISTORY-MARKER", ...openaiFlags(server, project)], { env });
    expect(first.code, first.stderr).toBe(0);

    server.reply().text("SUBAGENT-FINDINGS");
    server.reply().text("Done: SUBAGENT-FINDINGS");
    const run = await runHx(
      ["agent", "--continue", "/forky check the TASK-ARGS", ...openaiFlags(server, project), ...BYPASS],
      { env },
    );
    expect(run.code, run.stderr).toBe(0);
    const [, subagent, parent] = server.requests;
    const seen = userTexts(subagent);
    expect(seen).toContain("FORK-BODY: look around and report.");
    expect(seen).toContain("check the TASK-ARGS");
    expect(JSON.stringify(subagent.body.messages)).not.toContain("PARENT-HISTORY-MARKER");
    // model: runs the fork on that model; the parent stays on the session's.
    expect(subagent.body.model).toBe("fork-model");
    expect(parent.body.model).toBe("test-model");
    // agent: Explore = the read-only tools.
    expect(toolNamesOf(subagent)).not.toContain("write_file");
    expect(toolNamesOf(subagent)).toContain("read_file");
    const parentText = userTexts(parent);
    expect(parentText).toContain("PARENT-HISTORY-MARKER");
    expect(parentText).toContain("SUBAGENT-FINDINGS");
    expect(parentText).not.toContain("FORK-BODY");
    expect(run.stdout).toContain("Done: SUBAGENT-FINDINGS");
  });

  it("a forked skill loaded by the model answers load_skill with the subagent's result", async () => {
    const { server, project } = fixture;
    writeSkill(
      path.join(project, ".agents", "skills"),
      "forky",
      "name: forky\ndescription: Investigates in a subagent.\ncontext: fork",
      "FORK-BODY-2",
    );
    server.reply().tool("load_skill", { name: "forky", args: "MODEL-GIVEN-TASK" });
    server.reply().text("FORKED-RESULT");
    server.reply().text("all done");
    const run = await runHx(["agent", "USER-ASKS", ...openaiFlags(server, project)], { env: KEYS });
    expect(run.code, run.stderr).toBe(0);
    const subagent = server.requests[1];
    expect(userTexts(subagent)).toContain("FORK-BODY-2");
    expect(userTexts(subagent)).toContain("MODEL-GIVEN-TASK");
    expect(JSON.stringify(subagent.body.messages)).not.toContain("USER-ASKS");
    const last = messagesOf(server.requests[2]).at(-1);
    expect(last.role).toBe("tool");
    expect(last.content).toContain("FORKED-RESULT");
    expect(JSON.stringify(server.requests[2].body.messages)).not.toContain("FORK-BODY-2");
  });

  it("fills in the skill's folder and runs !`date` for a trusted skill; not in an untrusted project", async () => {
    const { server, project } = fixture;
    const home = tempDir("hx-home-");
    const userSkills = path.join(home, ".agents", "skills");
    mkdirSync(userSkills, { recursive: true });
    const dir = writeSkill(
      userSkills,
      "stamp",
      "name: stamp\ndescription: Stamps the date.",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the skill's own placeholders.
      "Folder: ${CLAUDE_SKILL_DIR} / {baseDir} / ${HX_SKILL_DIR}\nToday: !`date +DATE-%Y`\nArgs: $ARGUMENTS",
    );
    writeSkill(
      path.join(project, ".agents", "skills"),
      "shipped",
      "name: shipped\ndescription: Shipped with the repository.",
      "Run: !`touch SHOULD-NOT-EXIST`",
    );
    const env = { ...KEYS, HOME: home };
    server.reply().text("ok");
    const run = await runHx(["agent", "/stamp now", ...openaiFlags(server, project), ...BYPASS], { env });
    expect(run.code, run.stderr).toBe(0);
    const sent = userTexts(server.requests[0]);
    expect(sent).toContain(`Folder: ${dir} / ${dir} / ${dir}`);
    expect(sent).toContain(`Today: DATE-${new Date().getFullYear()}`);
    expect(sent).not.toContain("!`date");
    expect(sent).toContain("Args: now");

    server.reply().text("ok");
    const untrusted = await runHx(["agent", "/shipped", ...openaiFlags(server, project), ...BYPASS], { env });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(untrusted.stderr).toContain("its !`cmd` lines were not run: this folder is not trusted");
    expect(userTexts(server.requests[1])).toContain("Run: [not run: this folder is not trusted");
    const { existsSync } = await import("node:fs");
    expect(existsSync(path.join(project, "SHOULD-NOT-EXIST"))).toBe(false);
  });

  it("!`cmd` goes through the permission check: a denied command is not run and says why", async () => {
    const { server, project } = fixture;
    const home = tempDir("hx-home-");
    writeSkill(
      path.join(home, ".agents", "skills"),
      "asks",
      "name: asks\ndescription: Runs a command.",
      "Out: !`touch MARKER-FILE`",
    );
    server.reply().text("ok");
    // No terminal to ask: a command that needs approval is refused.
    const run = await runHx(["agent", "/asks", ...openaiFlags(server, project)], {
      env: { ...KEYS, HOME: home },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(userTexts(server.requests[0])).toMatch(/Out: \[not run: .*touch MARKER-FILE/);
    const { existsSync } = await import("node:fs");
    expect(existsSync(path.join(project, "MARKER-FILE"))).toBe(false);
  });

  it("model: runs the user-invoked turn on that model; when_to_use joins the catalog; unknown fields warn once", async () => {
    const { server, project } = fixture;
    const skills = path.join(project, ".agents", "skills");
    writeSkill(
      skills,
      "big",
      "name: big\ndescription: Needs a big model.\nmodel: big-model\nwhen_to_use: WHEN-MARKER for big jobs\neffort: high\nshell: bash",
      "Big body.",
    );
    server.reply().text("ok");
    server.reply().text("ok");
    const env = { ...KEYS, HOME: tempDir("hx-home-") };
    const run = await runHx(["agent", "/big", ...openaiFlags(server, project)], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests[0].body.model).toBe("big-model");
    const plain = await runHx(["agent", "hi", ...openaiFlags(server, project)], { env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(server.requests[1].body.model).toBe("test-model");
    const system = String(messagesOf(server.requests[1])[0].content);
    expect(system).toContain("- big: Needs a big model. WHEN-MARKER for big jobs");

    const list = await runHx(["skills", "list", "--json", "-C", project], { env });
    const big = JSON.parse(list.stdout).skills.find((s: { name: string }) => s.name === "big");
    expect(big.warnings).toEqual(["hx does not act on the fields effort, shell"]);
  });

  it("model: a Claude model on another provider stays on the session's model and says so", async () => {
    const { server, project } = fixture;
    writeSkill(
      path.join(project, ".agents", "skills"),
      "opus-only",
      "name: opus-only\ndescription: Wants opus.\nmodel: opus",
      "Body.",
    );
    server.reply().text("ok");
    const run = await runHx(["agent", "/opus-only", ...openaiFlags(server, project)], {
      env: { ...KEYS, HOME: tempDir("hx-home-") },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests[0].body.model).toBe("test-model");
    expect(run.stderr).toContain("model 'opus' not used: the openai provider does not offer Claude models");
  });

  it("hooks: apply while the skill is active, for a trusted skill only", async () => {
    const { server, project } = fixture;
    const home = tempDir("hx-home-");
    const hooks = [
      "hooks:",
      "  PreToolUse:",
      "    - matcher: bash",
      "      hooks:",
      "        - type: command",
      '          command: "echo SKILL-HOOK-BLOCKED >&2; exit 2"',
    ].join("\n");
    writeSkill(
      path.join(home, ".agents", "skills"),
      "guarded",
      `name: guarded\ndescription: Guards bash.\n${hooks}`,
      "G.",
    );
    writeSkill(
      path.join(project, ".agents", "skills"),
      "shipped-hooks",
      `name: shipped-hooks\ndescription: Shipped hooks.\n${hooks}`,
      "S.",
    );
    const env = { ...KEYS, HOME: home };
    const flags = [...openaiFlags(server, project), ...BYPASS];
    server.reply().tool("bash", { command: "echo ran-1" });
    server.reply().text("ok");
    const guarded = await runHx(["agent", "/guarded", ...flags], { env });
    expect(guarded.code, guarded.stderr).toBe(0);
    expect(toolResultsOf(server.requests[1]).join("\n")).toContain("SKILL-HOOK-BLOCKED");

    // Not active any more (a plain prompt): the same call runs.
    server.reply().tool("bash", { command: "echo ran-2" });
    server.reply().text("ok");
    const plain = await runHx(["agent", "just run it", ...flags], { env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(toolResultsOf(server.requests[3]).join("\n")).toContain("ran-2");

    server.reply().tool("bash", { command: "echo ran-3" });
    server.reply().text("ok");
    const shipped = await runHx(["agent", "/shipped-hooks", ...flags], { env });
    expect(shipped.code, shipped.stderr).toBe(0);
    expect(shipped.stderr).toContain("shipped-hooks: its hooks are not used: this folder is not trusted");
    expect(toolResultsOf(server.requests[5]).join("\n")).toContain("ran-3");
  });
});
