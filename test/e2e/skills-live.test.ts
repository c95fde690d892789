// Hot reload and conditional skills through the real binary: what changed on disk or became
// relevant reaches the model as one appended message; the system prompt stays byte-identical.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { BYPASS } from "../support/wire.js";
import {
  KEYS,
  messagesOf,
  openaiFlags,
  systemOf,
  toolMessagesOf,
  useSeedFixture,
  writeSkill,
} from "./skills-support.js";

const fixture = useSeedFixture();
const skillsDir = () => path.join(fixture.project, ".agents", "skills");
const announcements = (request: (typeof fixture.server.requests)[number]) =>
  messagesOf(request).filter((m) => m.role === "user" && String(m.content).startsWith("<skills-update>"));

describe("live skills (hx binary)", () => {
  it("interactive: announces added, removed and changed skills once, and load_skill reads the new body", async () => {
    let call = 0;
    fixture.server.replyWith((_request, reply) => {
      call += 1;
      if (call === 1) {
        // While the model "thinks", the skills change on disk.
        writeSkill(
          skillsDir(),
          "deploy",
          "name: deploy\ndescription: Deploys the site. Use for releases.",
          "Deploy v1.",
        );
        rmSync(path.join(skillsDir(), "course-blog"), { recursive: true });
        writeSkill(
          skillsDir(),
          "sync-upstream",
          "name: sync-upstream\ndescription: Updates the reference submodule.",
          "New sync steps.",
        );
        reply.tool("bash", { command: "sleep 1" });
      } else if (call === 2) {
        writeSkill(
          skillsDir(),
          "deploy",
          "name: deploy\ndescription: Deploys the site. Use for releases.",
          "Deploy v2.",
        );
        reply.tool("load_skill", { name: "deploy" });
      } else {
        reply.text("done");
      }
    });
    // The interactive session (line mode) watches the skill roots.
    const run = await runHx([...openaiFlags(fixture.server, fixture.project), ...BYPASS], {
      env: KEYS,
      input: "go\n/exit\n",
    });
    expect(run.code, run.stderr).toBe(0);
    const [first, second, third] = fixture.server.requests;
    expect(systemOf(second)).toBe(systemOf(first));
    expect(systemOf(third)).toBe(systemOf(first));
    expect(announcements(first)).toHaveLength(0);
    const [update] = announcements(second);
    expect(update.content).toBe(
      [
        "<skills-update>",
        "The skills you can load changed since the list in the system prompt:",
        "- removed: course-blog (do not load it)",
        "- added: deploy: Deploys the site. Use for releases.",
        "- changed: sync-upstream: Updates the reference submodule.",
        "</skills-update>",
      ].join("\n"),
    );
    // Appended after the tool result, once: the third request carries the same single message.
    expect(announcements(third)).toHaveLength(1);
    const messages = messagesOf(second);
    expect(messages.at(-1)).toBe(update);
    expect(messages.at(-2).role).toBe("tool");
    // The body edited after the scan is what load_skill hands out.
    expect(toolMessagesOf(third).at(-1).content).toContain("Deploy v2.");
  });

  it("headless: watches nothing, so a skill added during the run is not announced (load_skill still reads the file)", async () => {
    let call = 0;
    fixture.server.replyWith((_request, reply) => {
      call += 1;
      if (call === 1) {
        writeSkill(skillsDir(), "deploy", "name: deploy\ndescription: Deploys the site.", "Deploy v1.");
        writeSkill(skillsDir(), "sync-upstream", "name: sync-upstream\ndescription: Updated.", "New steps.");
        reply.tool("bash", { command: "sleep 1" }); // a watcher would have fired by now
      } else if (call === 2) reply.tool("load_skill", { name: "sync-upstream" });
      else reply.text("done");
    });
    const run = await runHx(["agent", ...openaiFlags(fixture.server, fixture.project), ...BYPASS, "go"], {
      env: KEYS,
    });
    expect(run.code, run.stderr).toBe(0);
    const [first, second, third] = fixture.server.requests;
    expect(announcements(second)).toHaveLength(0);
    // (Loading the edited skill tells the model its new description; the added one stays unknown.)
    expect(
      announcements(third)
        .map((m) => String(m.content))
        .join(""),
    ).not.toContain("deploy");
    expect(systemOf(first)).not.toContain("deploy");
    // The body handed out is the file's current one, watched or not.
    expect(toolMessagesOf(third).at(-1).content).toContain("New steps.");
  });

  it("keeps a paths: skill out of the catalog until a tool touches a matching file", async () => {
    writeSkill(
      skillsDir(),
      "ts-style",
      'name: ts-style\ndescription: House rules for TypeScript files.\npaths: "src/**/*.ts"',
      "Use strict types.",
    );
    mkdirSync(path.join(fixture.project, "src", "lib"), { recursive: true });
    writeFileSync(path.join(fixture.project, "src", "lib", "a.ts"), "export const a = 1;\n");
    writeFileSync(path.join(fixture.project, "README.md"), "readme\n");
    fixture.server.reply().tool("read_file", { path: "README.md" });
    fixture.server.reply().tool("read_file", { path: "src/lib/a.ts" });
    fixture.server.reply().text("done");
    const run = await runHx(["agent", ...openaiFlags(fixture.server, fixture.project), "look"], {
      env: KEYS,
    });
    expect(run.code, run.stderr).toBe(0);
    const [first, second, third] = fixture.server.requests;
    expect(systemOf(first)).not.toContain("ts-style");
    expect(announcements(second)).toHaveLength(0); // README.md does not match
    expect(systemOf(third)).toBe(systemOf(first));
    const [update] = announcements(third);
    expect(update.content).toContain(
      "- now available: ts-style: House rules for TypeScript files. (it applies to src/lib/a.ts)",
    );
    const list = await runHx(["skills", "list", "--json"], { cwd: fixture.project });
    expect(JSON.parse(list.stdout).skills.find((s: { name: string }) => s.name === "ts-style")).toMatchObject(
      {
        inCatalog: false,
        paths: ["src/**/*.ts"],
      },
    );
  });
});

describe("task skills: [names] (hx binary)", () => {
  it("starts the subagent with the named skills' bodies; it still has no load_skill; unknown names are errors", async () => {
    fixture.server.reply().tool("task", {
      description: "sync",
      prompt: "Update the reference.",
      skills: ["sync-upstream"],
    });
    fixture.server.reply().text("synced"); // the subagent
    fixture.server.reply().tool("task", { description: "x", prompt: "y", skills: ["nope"] });
    fixture.server.reply().text("done");
    const run = await runHx(["agent", ...openaiFlags(fixture.server, fixture.project), "go"], { env: KEYS });
    expect(run.code, run.stderr).toBe(0);
    const child = fixture.server.requests[1];
    const [user] = messagesOf(child).filter((m) => m.role === "user");
    expect(user.content).toMatch(
      /^<skill name="sync-upstream">\n# \/sync-upstream[\s\S]*Your task:\nUpdate the reference\.$/,
    );
    expect(
      (child.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name),
    ).not.toContain("load_skill");
    const last = toolMessagesOf(fixture.server.requests[3]).at(-1);
    expect(last.content).toMatch(/^Error: task\.skills: Unknown skill 'nope'\. Available: /);
  });
});
