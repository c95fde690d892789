// End to end: what hx reads on its own (instructions, skills) and what glob, grep and
// load_skill return stay inside the workspace and outside read_file deny rules.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { KEYS, toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

const h = useHarness();
const SECRET = "SECRET-7f3a";

/** A file outside the workspace holding the secret. */
function outsideSecret(): string {
  const file = path.join(tempDir("hx-outside-"), "credentials");
  writeFileSync(file, `aws_secret_access_key = ${SECRET}\n`);
  return file;
}

const firstRequest = () => JSON.stringify(h.server.requests[0].body);

describe("files hx reads by itself", () => {
  it("an AGENTS.md or SKILL.md that links out of its folder is skipped with a warning", async () => {
    const secret = outsideSecret();
    symlinkSync(secret, path.join(h.work, "AGENTS.md"));
    mkdirSync(path.join(h.work, ".agents/skills/leak"), { recursive: true });
    symlinkSync(secret, path.join(h.work, ".agents/skills/leak/SKILL.md"));
    mkdirSync(path.join(h.work, ".agents/skills/fine"), { recursive: true });
    writeFileSync(
      path.join(h.work, ".agents/skills/fine/SKILL.md"),
      "---\nname: fine\ndescription: A normal skill.\n---\nBody.\n",
    );
    h.server.reply().text("ok");

    const run = await h.agent("hello");

    expect(run.code).toBe(0);
    expect(firstRequest()).not.toContain(SECRET);
    expect(firstRequest()).toContain("fine: A normal skill.");
    expect(run.stderr).toContain("AGENTS.md");
    expect(run.stderr).toMatch(/outside/);
  });

  it("a FIFO named AGENTS.md or SKILL.md does not hang the start", async () => {
    execFileSync("mkfifo", [path.join(h.work, "AGENTS.md")]);
    mkdirSync(path.join(h.work, ".agents/skills/pipe"), { recursive: true });
    execFileSync("mkfifo", [path.join(h.work, ".agents/skills/pipe/SKILL.md")]);
    h.server.reply().text("ok");
    const run = await h.agent("hello");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/named pipe/);
  });

  it("an instructions file over 256 KB is skipped", async () => {
    writeFileSync(path.join(h.work, "AGENTS.md"), `${"x".repeat(300 * 1024)}${SECRET}`);
    h.server.reply().text("ok");
    const run = await h.agent("hello");
    expect(run.code).toBe(0);
    expect(firstRequest()).not.toContain(SECRET);
    expect(run.stderr).toContain("larger than the limit");
  });
});

describe("glob, grep and load_skill", () => {
  it("glob cannot list outside the workspace, braces and .. included", async () => {
    const parent = tempDir("hx-parent-");
    writeFileSync(path.join(parent, "outside-file.txt"), "x");
    const work = path.join(parent, "work");
    mkdirSync(work);
    writeFileSync(path.join(work, "inside.txt"), "x");
    h.server
      .reply()
      .tool("glob", { pattern: "..{,}/**" })
      .tool("glob", { pattern: "{/etc,x}/**" })
      .tool("glob", { pattern: "../*" })
      .tool("glob", { pattern: "**/*.txt" });
    h.server.reply().text("done");

    const run = await runHx(
      ["agent", "list", ...h.args().filter((arg) => arg !== h.work && arg !== "-C"), "-C", work],
      { env: KEYS },
    );

    expect(run.code).toBe(0);
    const results = toolResultsOf(h.server.requests[1]);
    for (const result of results.slice(0, 3)) expect(result).toContain("must not contain '..'");
    expect(results[3]).toBe("inside.txt");
    expect(results.join("\n")).not.toContain("outside-file");
  });

  it("a read_file deny rule hides files from grep and glob, and refuses commands that name them", async () => {
    writeSettings(h.work, { permissions: { deny: ["read_file(.env*)"] } });
    writeFileSync(path.join(h.work, ".env"), `KEY=${SECRET}\n`);
    writeFileSync(path.join(h.work, "app.ts"), "const KEY = 1;\n");
    h.server
      .reply()
      .tool("grep", { pattern: "KEY" })
      .tool("grep", { pattern: "KEY", path: ".env" })
      .tool("glob", { pattern: "**/*" })
      .tool("bash", { command: "cat .env" })
      .tool("read_file", { path: ".env" });
    h.server.reply().text("done");

    const run = await h.agent("look", ["--permission-mode", "bypassPermissions"]);

    expect(run.code).toBe(0);
    const results = toolResultsOf(h.server.requests[1]);
    expect(results[0]).toBe("app.ts:1:const KEY = 1;");
    expect(results[1]).toMatch(
      /^Permission denied: grep\(\.env\) matches the deny rule read_file\(\.env\*\)/,
    );
    expect(results[2]).not.toContain(".env");
    expect(results[2]).toContain("app.ts");
    expect(results[3]).toMatch(/^Permission denied: bash\(cat \.env\) names \.env/);
    expect(results[4]).toMatch(/^Permission denied: read_file\(\.env\)/);
    expect(JSON.stringify(h.server.requests[1].body)).not.toContain(SECRET);
  });

  it("load_skill rules judge the skill that would load, however the name is spelled", async () => {
    writeSettings(h.work, { permissions: { deny: ["load_skill(deploy)"] } });
    mkdirSync(path.join(h.work, ".agents/skills/deploy"), { recursive: true });
    writeFileSync(
      path.join(h.work, ".agents/skills/deploy/SKILL.md"),
      `---\nname: deploy\ndescription: Ships it.\n---\n${SECRET}\n`,
    );
    h.server
      .reply()
      .tool("load_skill", { name: "DEPLOY" })
      .tool("load_skill", { name: " deploy " })
      .tool("load_skill", { name: "deploy" });
    h.server.reply().text("done");

    const run = await h.agent("deploy", ["--permission-mode", "bypassPermissions"]);

    expect(run.code).toBe(0);
    const results = toolResultsOf(h.server.requests[1]);
    for (const result of results)
      expect(result).toMatch(/^Permission denied: load_skill\(deploy\) matches the deny rule/);
    expect(JSON.stringify(h.server.requests[1].body)).not.toContain(SECRET);
  });
});
