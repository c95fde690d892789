// Every invocation form through the real binary: arguments filled into the body,
// user-invocable: false refused at the prompt, strict validation as the reference validator.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { KEYS, messagesOf, openaiFlags, useSeedFixture, writeSkill } from "./skills-support.js";

const fixture = useSeedFixture();
const skillsDir = () => path.join(fixture.project, ".agents", "skills");

describe("skill invocation forms (hx binary)", () => {
  it("/name args substitutes named and positional arguments into the body", async () => {
    writeSkill(
      skillsDir(),
      "fix-issue",
      'name: fix-issue\ndescription: Fixes a GitHub issue.\nargument-hint: "[issue] [branch]"\narguments: issue branch',
      "Fix issue #$issue on branch $branch ($2). Everything: $ARGUMENTS",
    );
    fixture.server.reply().text("done");
    const run = await runHx(
      ["agent", ...openaiFlags(fixture.server, fixture.project), "/fix-issue 42 main"],
      {
        env: KEYS,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const user = messagesOf(fixture.server.requests[0]).find((m) => m.role === "user");
    expect(user.content).toContain("Fix issue #42 on branch main (main). Everything: 42 main");
    expect(user.content).not.toContain("with this request");
  });

  it("/name with no placeholder in the body appends the arguments as the request", async () => {
    writeSkill(skillsDir(), "deploy", "name: deploy\ndescription: Deploys.", "Run the deploy script.");
    fixture.server.reply().text("done");
    const run = await runHx(
      ["agent", ...openaiFlags(fixture.server, fixture.project), "/deploy to staging"],
      {
        env: KEYS,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const user = messagesOf(fixture.server.requests[0]).find((m) => m.role === "user");
    expect(user.content).toMatch(
      /^<skill name="deploy">\nRun the deploy script\.\n<\/skill>[\s\S]*The user invoked the skill \/deploy with this request:\nto staging$/,
    );
  });

  it("a /name body too large for the window is cut and saved like a load_skill result; over a quarter warns", async () => {
    const body = (lines: number) => "Follow step after step carefully.\n".repeat(lines).trim();
    writeSkill(skillsDir(), "huge", "name: huge\ndescription: Huge.", body(28_000));
    writeSkill(skillsDir(), "big", "name: big\ndescription: Big.", body(330));
    const flags = [...openaiFlags(fixture.server, fixture.project), "--context-window", "8k"];
    fixture.server.reply().text("ok");
    const huge = await runHx(["agent", ...flags, "/huge go"], { env: KEYS });
    expect(huge.code, huge.stderr).toBe(0);
    expect(huge.stderr).toMatch(
      /warning: skill huge is ~[\d,]+ tokens, too large for the 8,000-token context window; the model sees its first part and reads the rest from \.hx\/tool-results\/skill-huge-/,
    );
    const sent = messagesOf(fixture.server.requests[0]).find((m) => m.role === "user").content as string;
    // About a quarter of the window (2,000 tokens ≈ 8,000 chars), not the 980,000-char body.
    expect(sent.length).toBeLessThan(10_000);
    expect(sent).toMatch(/^<skill name="huge">\nFollow step/);
    expect(sent).toContain("it does not fit in your 8,000-token context window, so only its start is above.");
    expect(sent).toMatch(/The user invoked the skill \/huge with this request:\ngo$/);
    const saved = readdirSync(path.join(fixture.project, ".hx", "tool-results"));
    expect(saved).toHaveLength(1);
    expect(readFileSync(path.join(fixture.project, ".hx", "tool-results", saved[0]), "utf8")).toContain(
      body(28_000),
    );

    fixture.server.reply().text("ok");
    const big = await runHx(["agent", ...flags, "/big"], { env: KEYS });
    expect(big.code, big.stderr).toBe(0);
    expect(big.stderr).toMatch(
      /warning: skill big is ~[\d,]+ tokens, more than a quarter of the 8,000-token context window/,
    );
    const whole = messagesOf(fixture.server.requests[1]).find((m) => m.role === "user").content as string;
    expect(whole).toContain(body(330));
    expect(whole).toContain("[Note: the skill big is ");
  });

  it("refuses /name for a user-invocable: false skill, which the model can still load", async () => {
    writeSkill(
      skillsDir(),
      "background",
      "name: background\ndescription: House style.\nuser-invocable: false",
      "Style.",
    );
    const run = await runHx(["agent", ...openaiFlags(fixture.server, fixture.project), "/background now"], {
      env: KEYS,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("user-invocable: false");
    expect(fixture.server.requests).toHaveLength(0);
    const list = await runHx(["skills", "list", "--json"], { cwd: fixture.project });
    const listed = JSON.parse(list.stdout).skills.find((s: { name: string }) => s.name === "background");
    expect(listed).toMatchObject({ inCatalog: true, userInvocable: false });
  });

  it("validate --strict applies the reference's rules to hx's extension fields", async () => {
    const dir = writeSkill(
      skillsDir(),
      "manual",
      "name: manual\ndescription: d\ndisable-model-invocation: true",
      "B",
    );
    const lenient = await runHx(["skills", "validate", dir], { cwd: fixture.project });
    expect(lenient.code).toBe(0);
    const strict = await runHx(["skills", "validate", "--strict", dir], { cwd: fixture.project });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("Unexpected fields in frontmatter: disable-model-invocation");
  });
});
