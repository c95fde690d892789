// The seed articles' skill experiments, end to end: the real built `hx` against the fake
// model server, in a temp git repository holding the seed's two project skills.
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import {
  COURSE_BLOG_BODY,
  COURSE_BLOG_DESCRIPTION,
  KEYS,
  messagesOf,
  openaiFlags,
  SYNC_UPSTREAM_BODY,
  SYNC_UPSTREAM_DESCRIPTION,
  systemOf,
  toolMessagesOf,
  toolNamesOf,
  useSeedFixture,
  writeSkill,
} from "./skills-support.js";

const fixture = useSeedFixture();

const agent = (prompt: string, extra: string[] = [], env: Record<string, string> = {}) =>
  runHx(["agent", prompt, ...openaiFlags(fixture.server, fixture.project), ...extra], {
    env: { ...KEYS, ...env },
  });

/** Every request of the run sent the same system prompt and tool list, byte for byte. */
function expectStablePrefix() {
  expect(fixture.server.requests.length).toBeGreaterThan(1);
  const [first, ...rest] = fixture.server.requests;
  for (const request of rest) {
    expect(JSON.stringify(request.body.messages[0])).toBe(JSON.stringify(first.body.messages[0]));
    expect(JSON.stringify(request.body.tools)).toBe(JSON.stringify(first.body.tools));
  }
}

describe("seed experiment (a): 'What skills are available?'", () => {
  it("answers from the catalog: every name and description, no body, no tool call", async () => {
    fixture.server.reply().text("Available skills: course-blog, sync-upstream.");
    const run = await agent("What skills are available?");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Available skills: course-blog, sync-upstream.\n");
    expect(run.stderr).toMatch(/turns=1 tool_calls=0 blocked=0/);
    expect(fixture.server.requests).toHaveLength(1);

    const system = systemOf(fixture.server.requests[0]);
    expect(fixture.server.requests[0].body.messages[0].role).toBe("system");
    expect(system).toContain(
      `- course-blog: ${COURSE_BLOG_DESCRIPTION}\n- sync-upstream: ${SYNC_UPSTREAM_DESCRIPTION}`,
    );
    expect(system).toContain("load_skill");
    // Layer one only: no body text, no skill wrapper.
    for (const line of [...SYNC_UPSTREAM_BODY.split("\n"), ...COURSE_BLOG_BODY.split("\n")]) {
      if (line.length > 12) expect(system).not.toContain(line);
    }
    expect(system).not.toContain("<skill");
    expect(toolNamesOf(fixture.server.requests[0])).toContain("load_skill");
  });
});

describe("seed experiment (b): 'load sync-upstream'", () => {
  it("the model calls load_skill; the body comes back as a role:tool message; turns=2 tool_calls=1", async () => {
    fixture.server.reply().tool("load_skill", { name: "sync-upstream" });
    fixture.server
      .reply()
      .text("sync-upstream 用于把 learn-claude-code 子模块同步到上游最新版本，不提交、不推送。");
    const run = await agent("加载 sync-upstream 技能，只用一句话说明它的用途，不要执行同步", ["-v"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("不提交、不推送");
    expect(run.stderr).toContain("> load_skill name=sync-upstream");
    expect(run.stderr).toMatch(/turns=2 tool_calls=1 blocked=0/);
    expect(fixture.server.requests).toHaveLength(2);

    // The first request had no body; the next one carries it as the load_skill result.
    expect(JSON.stringify(fixture.server.requests[0].body.messages)).not.toContain("不要自己解决");
    const [result] = toolMessagesOf(fixture.server.requests[1]);
    const content = result.content ?? "";
    expect(content.startsWith(`<skill name="sync-upstream">\n${SYNC_UPSTREAM_BODY}\n</skill>`)).toBe(true);
    expect(content).not.toContain("description:"); // the frontmatter stays out
    expect(content).toContain(
      `Base directory for this skill: ${realpathSync(path.join(fixture.project, ".agents/skills/sync-upstream"))}`,
    );
    const call = messagesOf(fixture.server.requests[1]).find((m) => m.role === "assistant") as unknown as {
      tool_calls: Array<{ id: string; function: { name: string; arguments: string } }>;
    };
    expect(call.tool_calls[0].function).toEqual({
      name: "load_skill",
      arguments: '{"name":"sync-upstream"}',
    });
    expect(result.tool_call_id).toBe(call.tool_calls[0].id);

    // The seed's hook lines, output_chars being the length of what the model was sent.
    expect(run.stderr).toContain('[HOOK] PreToolUse load_skill({"name":"sync-upstream"})');
    expect(run.stderr).toContain(`[HOOK] PostToolUse load_skill output_chars=${content.length}\n`);
    expect(run.stderr).toContain("[HOOK] Stop: turns=2, tool_calls=1, blocked=0");
    const order = [
      "> load_skill name=sync-upstream",
      "[HOOK] PreToolUse load_skill",
      "[HOOK] PostToolUse",
      "[HOOK] Stop:",
    ];
    const positions = order.map((line) => run.stderr.indexOf(line));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expectStablePrefix();
  });
});

describe("seed experiment (c): 'load react'", () => {
  it("an unknown skill gets an error listing the available ones; the model recovers", async () => {
    fixture.server.reply().tool("load_skill", { name: "react" });
    fixture.server.reply().tool("load_skill", { name: "course-blog" });
    fixture.server.reply().text("There is no react skill; I loaded course-blog instead.");
    const run = await agent("load the react skill");
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("> load_skill name=react");
    expect(run.stderr).toContain("> load_skill name=course-blog");
    expect(run.stderr).toMatch(/turns=3 tool_calls=2 blocked=0/);
    const [error] = toolMessagesOf(fixture.server.requests[1]);
    expect(error.content).toBe("Error: Unknown skill 'react'. Available: course-blog, sync-upstream");
    const loaded = toolMessagesOf(fixture.server.requests[2]);
    expect(loaded[1].content).toMatch(/^<skill name="course-blog">\n# course-blog\n/);
  });

  it("a near miss puts the closest name first", async () => {
    fixture.server.reply().tool("load_skill", { name: "upstream" });
    fixture.server.reply().tool("load_skill", { name: "sync-upstream" });
    fixture.server.reply().text("ok");
    const run = await agent("sync");
    expect(run.code).toBe(0);
    expect(toolMessagesOf(fixture.server.requests[1])[0].content).toBe(
      "Error: Unknown skill 'upstream'. Available: sync-upstream, course-blog",
    );
    expect(toolMessagesOf(fixture.server.requests[2])[1].content).toMatch(/^<skill name="sync-upstream">/);
  });
});

describe("discovery and precedence through the binary", () => {
  it("finds the repository root's skills from a subdirectory (-C sub/dir)", async () => {
    const sub = path.join(fixture.project, "packages", "app");
    mkdirSync(sub, { recursive: true });
    fixture.server.reply().tool("load_skill", { name: "sync-upstream" });
    fixture.server.reply().text("done");
    const run = await runHx(["agent", "sync upstream", ...openaiFlags(fixture.server, sub)], { env: KEYS });
    expect(run.code).toBe(0);
    const system = systemOf(fixture.server.requests[0]);
    expect(system).toContain(`You are hx, a coding agent working in ${realpathSync(sub)}.`);
    expect(system).toContain(`- course-blog: ${COURSE_BLOG_DESCRIPTION}`);
    expect(system).toContain(`- sync-upstream: ${SYNC_UPSTREAM_DESCRIPTION}`);
    expect(toolMessagesOf(fixture.server.requests[1])[0].content).toContain(SYNC_UPSTREAM_BODY);
  });

  it("a project skill beats a user skill of the same name; -v names both paths", async () => {
    const home = tempDir("hx-home-");
    const userDir = writeSkill(
      path.join(home, ".agents", "skills"),
      "sync-upstream",
      "name: sync-upstream\ndescription: The user's own copy, which must lose.",
      "# user copy\nUSER BODY",
    );
    writeSkill(
      path.join(home, ".agents", "skills"),
      "home-only",
      "name: home-only\ndescription: From HOME.",
      "HOME BODY",
    );
    fixture.server.reply().tool("load_skill", { name: "sync-upstream" });
    fixture.server.reply().text("ok");
    const run = await agent("load it", ["-v"], { HOME: home });
    expect(run.code).toBe(0);
    const system = systemOf(fixture.server.requests[0]);
    expect(system).toContain(`- sync-upstream: ${SYNC_UPSTREAM_DESCRIPTION}`);
    expect(system).not.toContain("must lose");
    expect(system).toContain("- home-only: From HOME.");
    expect(toolMessagesOf(fixture.server.requests[1])[0].content).toContain(SYNC_UPSTREAM_BODY);
    expect(toolMessagesOf(fixture.server.requests[1])[0].content).not.toContain("USER BODY");
    const projectFile = path.join(fixture.project, ".agents/skills/sync-upstream/SKILL.md");
    expect(run.stderr).toContain(
      `skills: ${path.join(userDir, "SKILL.md")}: skill 'sync-upstream' is shadowed by ${projectFile}`,
    );
  });

  it("malformed SKILL.md files never stop the agent", async () => {
    const skills = path.join(fixture.project, ".agents", "skills");
    mkdirSync(path.join(skills, "unclosed"));
    writeFileSync(path.join(skills, "unclosed/SKILL.md"), "---\nname: unclosed\ndescription: never closed\n");
    mkdirSync(path.join(skills, "colon"));
    writeFileSync(
      path.join(skills, "colon/SKILL.md"),
      "---\nname: colon\ndescription: Use when: the YAML is invalid\n---\nColon body\n",
    );
    mkdirSync(path.join(skills, "empty"));
    writeFileSync(path.join(skills, "empty/SKILL.md"), "");
    mkdirSync(path.join(skills, "binary"));
    writeFileSync(
      path.join(skills, "binary/SKILL.md"),
      Buffer.from([0xff, 0xfe, 0x00, 0x2d, 0x2d, 0x2d, 0x0a]),
    );
    mkdirSync(path.join(skills, "tabs"));
    writeFileSync(path.join(skills, "tabs/SKILL.md"), "---\nname: tabs\n\tdescription: x\n---\nTabs body\n");
    fixture.server.reply().tool("load_skill", { name: "colon" });
    fixture.server.reply().text("still fine");
    const run = await agent("what can you do?", ["-v"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("still fine\n");
    const system = systemOf(fixture.server.requests[0]);
    expect(system).toContain(`- sync-upstream: ${SYNC_UPSTREAM_DESCRIPTION}`);
    expect(system).toContain("- colon: Use when: the YAML is invalid");
    expect(toolMessagesOf(fixture.server.requests[1])[0].content).toMatch(
      /^<skill name="colon">\nColon body\n<\/skill>/,
    );
    expect(run.stderr).toMatch(/skills: .*colon\/SKILL\.md: /);
  });
});

describe("user invocation: /name as the hx agent prompt", () => {
  it("/sync-upstream now puts the body in the first user message before the model runs", async () => {
    fixture.server.reply().text("Synced.");
    const run = await agent("/sync-upstream now");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/turns=1 tool_calls=0/);
    const user = messagesOf(fixture.server.requests[0]).filter((m) => m.role === "user");
    expect(user).toHaveLength(1);
    expect(user[0].content).toMatch(/^<skill name="sync-upstream">\n/);
    expect(user[0].content).toContain(SYNC_UPSTREAM_BODY);
    expect(user[0].content).toMatch(/\/sync-upstream[\s\S]*\nnow$/);
    // The body is in the conversation, not in the system prompt.
    expect(systemOf(fixture.server.requests[0])).not.toContain("<skill");
  });

  it("disable-model-invocation keeps a skill out of the catalog and load_skill; /name still works", async () => {
    writeSkill(
      path.join(fixture.project, ".agents", "skills"),
      "release-train",
      "name: release-train\ndescription: Cut a release.\ndisable-model-invocation: true",
      "# release-train\nTag, build, publish. ONLY-THE-USER-STARTS-THIS",
    );
    fixture.server.reply().tool("load_skill", { name: "release-train" });
    fixture.server.reply().text("cannot");
    const byModel = await agent("release");
    expect(byModel.code).toBe(0);
    expect(systemOf(fixture.server.requests[0])).not.toContain("release-train");
    const error = toolMessagesOf(fixture.server.requests[1])[0].content;
    expect(error).toMatch(/^Error: /);
    expect(error).not.toContain("ONLY-THE-USER-STARTS-THIS");

    fixture.server.reply().text("Released.");
    const byUser = await agent("/release-train v1.2");
    expect(byUser.code).toBe(0);
    const request = fixture.server.requests[2];
    expect(systemOf(request)).not.toContain("release-train");
    const user = messagesOf(request).find((m) => m.role === "user");
    expect(user?.content).toMatch(/^<skill name="release-train">\n# release-train\n/);
    expect(user?.content).toContain("ONLY-THE-USER-STARTS-THIS");
    expect(user?.content).toContain("v1.2");
  });
});

describe("the loaded skill's folder and subagents", () => {
  it("a user skill's file outside the workspace is readable after load_skill, refused before", async () => {
    const home = tempDir("hx-home-");
    const dir = writeSkill(
      path.join(home, ".agents", "skills"),
      "house-style",
      "name: house-style\ndescription: Our writing rules. Use before writing docs.",
      "# house-style\nRead references/rules.md before writing.",
    );
    mkdirSync(path.join(dir, "references"));
    const reference = path.join(dir, "references", "rules.md");
    writeFileSync(reference, "RULE-1: sentences under 25 words.\n");
    fixture.server.reply().tool("read_file", { path: reference });
    fixture.server.reply().tool("load_skill", { name: "house-style" });
    fixture.server.reply().tool("read_file", { path: reference });
    fixture.server.reply().text("Rules read.");
    const run = await agent("write the docs in house style", [], { HOME: home });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/turns=4 tool_calls=3/);
    const before = toolMessagesOf(fixture.server.requests[1])[0].content;
    expect(before).toMatch(/outside the workspace/);
    expect(before).not.toContain("RULE-1");
    const loaded = toolMessagesOf(fixture.server.requests[2])[1].content ?? "";
    expect(loaded).toContain("references/rules.md");
    const after = toolMessagesOf(fixture.server.requests[3])[2].content;
    expect(after).toContain("RULE-1: sentences under 25 words.");
    expectStablePrefix();
  });

  it("a subagent (task tool) gets no load_skill and no catalog", async () => {
    fixture.server.reply().tool("task", {
      description: "Find the entry point",
      prompt: "Which file starts the CLI? Answer in one line.",
    });
    fixture.server.reply().text("bin/hx.js"); // the subagent's only turn
    fixture.server.reply().text("The CLI starts in bin/hx.js.");
    const run = await agent("where does the CLI start?");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The CLI starts in bin/hx.js.\n");
    expect(fixture.server.requests).toHaveLength(3);
    const [parent, subagent, parentAgain] = fixture.server.requests;
    expect(toolNamesOf(parent)).toEqual(expect.arrayContaining(["load_skill", "task"]));
    expect(messagesOf(subagent)[1]).toMatchObject({ role: "user" });
    expect(messagesOf(subagent)[1].content).toContain("Which file starts the CLI?");
    expect(toolNamesOf(subagent).length).toBeGreaterThan(0);
    expect(toolNamesOf(subagent)).not.toContain("load_skill");
    expect(toolNamesOf(subagent)).not.toContain("task");
    expect(systemOf(subagent)).not.toContain("- sync-upstream:");
    expect(systemOf(subagent)).not.toContain("load_skill");
    expect(toolMessagesOf(parentAgain)[0].content).toContain("bin/hx.js");
    expect(JSON.stringify(parentAgain.body.tools)).toBe(JSON.stringify(parent.body.tools));
    expect(systemOf(parentAgain)).toBe(systemOf(parent));
  });
});
