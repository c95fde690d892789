// Every invocation form through the real binary: arguments filled into the body,
// user-invocable: false refused at the prompt, strict validation as the reference validator.
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
