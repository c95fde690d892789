// Every invocation form through the real binary: arguments filled into the body,
// user-invocable: false refused at the prompt, strict validation as the reference validator.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx, SHARED_DIR } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
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

  it("Codex's agents/openai.yaml allow_implicit_invocation: false: out of the catalog and load_skill; /name works", async () => {
    const dir = writeSkill(
      skillsDir(),
      "by-hand",
      "name: by-hand\ndescription: Only when asked.",
      "HAND-BODY",
    );
    mkdirSync(path.join(dir, "agents"));
    writeFileSync(path.join(dir, "agents", "openai.yaml"), "policy:\n  allow_implicit_invocation: false\n");
    fixture.server.reply().tool("load_skill", { name: "by-hand" });
    fixture.server.reply().text("cannot");
    fixture.server.reply().text("done by hand");
    const flags = openaiFlags(fixture.server, fixture.project);
    const byModel = await runHx(["agent", ...flags, "do it"], { env: KEYS });
    expect(byModel.code, byModel.stderr).toBe(0);
    expect(messagesOf(fixture.server.requests[0])[0].content).not.toContain("by-hand");
    const refused = messagesOf(fixture.server.requests[1]).find((m) => m.role === "tool");
    expect(refused.content).toMatch(/^Error: /);
    expect(refused.content).not.toContain("HAND-BODY");
    const byUser = await runHx(["agent", ...flags, "/by-hand"], { env: KEYS });
    expect(byUser.code, byUser.stderr).toBe(0);
    expect(messagesOf(fixture.server.requests[2]).find((m) => m.role === "user").content).toContain(
      "HAND-BODY",
    );
    const list = await runHx(["skills", "list", "--json"], { cwd: fixture.project });
    expect(JSON.parse(list.stdout).skills.find((s: { name: string }) => s.name === "by-hand")).toMatchObject({
      inCatalog: false,
      userInvocable: true,
    });
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

const CASES_FILE = path.join(SHARED_DIR, "conformance", "agent-skills-cases.json");

describe.skipIf(!existsSync(CASES_FILE))("the reference validator's cases through hx skills validate", () => {
  it("--strict --json gives the reference's verdict on every case; without --strict only the argued ones differ", async () => {
    const { cases } = JSON.parse(readFileSync(CASES_FILE, "utf8")) as {
      cases: Array<{
        id: string;
        dir: string;
        file: string;
        content: string;
        skills_ref: { validate: string[] };
      }>;
    };
    const root = tempDir("hx-conformance-cli-");
    const dirs = cases.map((c, i) => {
      const dir = path.join(root, String(i), c.dir);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, c.file), c.content);
      return dir;
    });
    const errorsOf = (verdict: { diagnostics: Array<{ level: string; message: string }> }) =>
      verdict.diagnostics.filter((d) => d.level === "error").map((d) => d.message);
    const same = (ours: string[], reference: string[]) =>
      ours.length === reference.length &&
      ours.every((m, i) =>
        m.startsWith("Invalid YAML in frontmatter:")
          ? reference[i].startsWith("Invalid YAML in frontmatter:")
          : m === reference[i],
      );
    const verdicts = async (extra: string[]) => {
      const run = await runHx(["skills", "validate", "--json", ...extra, ...dirs], { cwd: root });
      expect(run.code).toBe(1); // some cases are invalid
      const parsed = JSON.parse(run.stdout) as Array<{
        valid: boolean;
        diagnostics: Array<{ level: string; message: string }>;
      }>;
      expect(parsed).toHaveLength(cases.length);
      return parsed;
    };
    const strict = await verdicts(["--strict"]);
    const disagree = cases
      .filter((c, i) => !same(errorsOf(strict[i]), c.skills_ref.validate))
      .map((c) => c.id);
    expect(disagree).toEqual([]);
    // The lenient verdicts differ exactly where docs/skills.md argues it (the table there).
    const lenient = await verdicts([]);
    const differ = cases
      .filter((c, i) => !same(errorsOf(lenient[i]), c.skills_ref.validate))
      .map((c) => c.id);
    expect(differ.sort()).toEqual(["anchor_alias", "disable_model_invocation", "flow_list_allowed_tools"]);
    const docs = readFileSync(path.join(import.meta.dirname, "../../docs/skills.md"), "utf8");
    for (const id of differ) expect(docs).toContain(`| \`${id}\``);
  });
});
