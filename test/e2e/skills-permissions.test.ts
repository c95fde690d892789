// allowed-tools / disallowed-tools while a skill is active, through the real binary (headless:
// a call no rule allows is denied at once, so an allowed one running shows the pre-approval).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { userMessage } from "../../src/core/messages.js";
import { ActiveSkills } from "../../src/skills/active-skills.js";
import { fakeSkill } from "../skills/helpers.js";
import { runHx } from "../support/run-hx.js";
import { KEYS, openaiFlags, toolMessagesOf, useSeedFixture, writeSkill } from "./skills-support.js";

const fixture = useSeedFixture();

describe("allowed-tools and disallowed-tools (hx binary)", () => {
  it("pre-approves while the skill is active, never past a deny rule or the block list; refuses disallowed tools", async () => {
    writeSkill(
      path.join(fixture.project, ".agents", "skills"),
      "release",
      'name: release\ndescription: Releases.\nallowed-tools: "Bash(touch release-*) Bash(sudo *)"\ndisallowed-tools: Read',
      "Run echo release.",
    );
    writeFileSync(path.join(fixture.project, "notes.txt"), "n\n");
    const settingsDir = path.join(fixture.project, ".hx");
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(
      path.join(settingsDir, "settings.json"),
      JSON.stringify({ permissions: { deny: ["bash(touch release-now)"] } }),
    );
    fixture.server.reply().tool("bash", { command: "touch release-one" }); // before: no rule, headless → denied
    fixture.server.reply().tool("load_skill", { name: "release" });
    fixture.server
      .reply()
      .tool("bash", { command: "touch release-two" }, { id: "c1" })
      .tool("bash", { command: "touch release-now" }, { id: "c2" })
      .tool("bash", { command: "sudo touch release-root" }, { id: "c3" })
      .tool("read_file", { path: "notes.txt" }, { id: "c4" });
    fixture.server.reply().text("done");
    // The user's own project (trusted): its skill's allowed-tools are honoured.
    const run = await runHx(
      ["agent", ...openaiFlags(fixture.server, fixture.project), "--trust", "release it"],
      {
        env: KEYS,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const first = toolMessagesOf(fixture.server.requests[1]).at(-1);
    expect(first.content).toMatch(/^Permission denied: .*no terminal to ask/);
    const results = toolMessagesOf(fixture.server.requests[3])
      .slice(-4)
      .map((m) => String(m.content));
    expect(results[0]).not.toMatch(/^Permission denied/); // ran: pre-approved by allowed-tools
    expect(existsSync(path.join(fixture.project, "release-two"))).toBe(true);
    expect(existsSync(path.join(fixture.project, "release-one"))).toBe(false);
    expect(results[1]).toMatch(/^Permission denied: .*deny rule bash\(touch release-now\)/);
    expect(results[2]).toMatch(/^Permission denied: .*block list/);
    expect(results[3]).toBe(
      "Permission denied: read_file(notes.txt) is refused while the skill release is active (its disallowed-tools lists Read). Do it another way, or finish that task first.",
    );
  });
});

describe("ActiveSkills", () => {
  it("is active from the load until the next prompt the user types; reminders do not end it", () => {
    const skill = fakeSkill("release", "d", {
      allowedTools: ["Bash(npm test*)"],
      disallowedTools: ["Write"],
    });
    const active = new ActiveSkills(() => [skill]);
    const append = (message: Parameters<typeof userMessage>[0] | object) =>
      active.follow({ type: "append", message: message as never, version: 0 });
    append({
      role: "tool",
      toolCallId: "1",
      toolName: "load_skill",
      content: "body",
      meta: { skill: "release" },
    });
    expect(active.rules()).toEqual({
      allow: [{ rule: "Bash(npm test*)", skill: "release" }],
      deny: [{ rule: "Write", skill: "release" }],
    });
    append(userMessage("<reminder>", { kind: "reminder" }));
    expect(active.names()).toEqual(["release"]);
    append(userMessage("next task"));
    expect(active.names()).toEqual([]);
    append(userMessage("/release", { skills: [{ name: "release", start: 0, end: 4 }] }));
    expect(active.names()).toEqual(["release"]);
  });
});
