// End to end: Claude Code's settings files read by hx. A project's `.claude/` folder as Claude
// Code users write it (test/fixtures/claude-hooks/claude-project: hooks run through
// "$CLAUDE_PROJECT_DIR", rules in Claude Code's forms) works as it is in `.claude/`: its deny rules, allow rules in
// Claude Code's forms, hooks and env apply in a trusted folder; in an untrusted one only what
// restricts does.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runHx } from "../support/run-hx.js";
import { HAS_JQ } from "../support/safety-net.js";
import { tempDir } from "../support/temp-dir.js";
import { KEYS, toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

const CLAUDE_PROJECT = path.join(REPO_ROOT, "test", "fixtures", "claude-hooks", "claude-project", ".claude");
const h = useHarness();

/** The project's `.claude/` folder, copied as a user who moves from Claude Code has it. */
function copyClaudeProject(): void {
  cpSync(CLAUDE_PROJECT, path.join(h.work, ".claude"), { recursive: true });
}

function writeClaudeSettings(settings: unknown, file = "settings.json"): void {
  mkdirSync(path.join(h.work, ".claude"), { recursive: true });
  writeFileSync(path.join(h.work, ".claude", file), JSON.stringify(settings, null, 2));
}

/** The model's calls: a denied rm, a rule-allowed command, a bad commit, a MANIFESTO write. */
function scriptCalls(): void {
  mkdirSync(path.join(h.work, "build"));
  writeFileSync(path.join(h.work, "build", "keep.txt"), "x");
  writeFileSync(path.join(h.work, "MANIFESTO.md"), "v1\n");
  h.server
    .reply()
    .tool("bash", { command: "rm -rf build" })
    .tool("bash", { command: "minikube status" })
    .tool("bash", { command: 'git commit -m "stuff"' })
    .tool("write_file", { path: "MANIFESTO.md", content: "v2\n" });
  h.server.reply().text("done");
}

describe.skipIf(!HAS_JQ)("a Claude Code project's .claude/settings.json", () => {
  it("applies as it is in a trusted folder: deny and allow rules, and its hooks", async () => {
    copyClaudeProject();
    scriptCalls();
    const run = await h.agent("work");
    expect(run.code).toBe(0);
    const [rm, minikube, commit, manifesto] = toolResultsOf(h.server.requests[1]);
    expect(rm).toMatch(/^Permission denied: bash\(rm -rf build\) matches the deny rule Bash\(rm -rf \*\)/);
    expect(existsSync(path.join(h.work, "build", "keep.txt"))).toBe(true);
    // Allowed by `Bash(minikube *)`: it ran (and is not installed here).
    expect(minikube).not.toMatch(/Permission denied/);
    expect(commit).toContain("Blocked: commit messages use Conventional Commits");
    expect(manifesto).toContain("Blocked: MANIFESTO files are the top-priority spec");
    expect(readFileSync(path.join(h.work, "MANIFESTO.md"), "utf8")).toBe("v1\n");
  });

  it("in an untrusted folder only its restrictions apply: deny rules yes; allow rules and hooks no", async () => {
    copyClaudeProject();
    scriptCalls();
    const run = await runHx(["agent", "work", ...h.args().filter((arg) => arg !== "--trust")], { env: KEYS });
    const [rm, minikube, commit] = toolResultsOf(h.server.requests[1]);
    expect(rm).toMatch(/matches the deny rule Bash\(rm -rf \*\)/);
    expect(minikube).toMatch(/^Permission denied/);
    expect(commit).not.toContain("Conventional Commits");
    expect(run.stderr).toMatch(/not trusted.*\.claude\/settings\.json: .*hooks\.PreToolUse \(2 hooks\)/);
  });

  it("hx's own files win over Claude Code's; Claude Code's path rules and env work", async () => {
    writeClaudeSettings({
      permissions: { deny: ["Read(./.env)"], defaultMode: "plan" },
      env: { GREETING: "from claude settings", OTHER: "claude" },
      statusLine: { type: "command", command: "echo status" },
      model: "opus",
    });
    writeSettings(h.work, { env: { OTHER: "hx" }, permissions: { defaultMode: "default" } });
    writeFileSync(path.join(h.work, ".env"), "TOKEN=do-not-read\n");
    h.server
      .reply()
      .tool("read_file", { path: ".env" })
      .tool("bash", { command: 'echo "$GREETING / $OTHER"' });
    h.server.reply().text("done");
    const run = await h.agent("go", ["--permission-mode", "bypassPermissions"]);
    expect(run.code).toBe(0);
    const [env, echo] = toolResultsOf(h.server.requests[1]);
    expect(env).toMatch(/^Permission denied: .*Read\(\.\/\.env\)/);
    expect(echo).toBe("from claude settings / hx");
    // Claude Code's `model` is not hx's: the model asked for is the one on the command line.
    expect(h.server.requests[0].body.model).toBe("test-model");
  });

  it("hx doctor lists the files in effect and what hx does not use", async () => {
    writeClaudeSettings({
      statusLine: { type: "command", command: "x" },
      permissions: {
        additionalDirectories: [],
        allow: ["WebFetch(domain:docs.python.org)", "WebSearch", "Bash(ls:*)"],
      },
    });
    const home = tempDir("hx-home-");
    mkdirSync(path.join(home, ".claude"));
    writeFileSync(
      path.join(home, ".claude", "settings.json"),
      JSON.stringify({ outputStyle: "Explanatory" }),
    );
    const run = await runHx(["doctor", "-C", h.work], { env: { HOME: home } });
    expect(run.stdout).toContain("~/.claude/settings.json (user)");
    expect(run.stdout).toContain(`${path.join(h.work, ".claude", "settings.json")} (project)`);
    expect(run.stdout).toContain("~/.claude/settings.json: not used by hx (Claude Code only): outputStyle");
    expect(run.stdout).toMatch(
      /\.claude\/settings\.json: not used by hx \(Claude Code only\): statusLine, permissions\.additionalDirectories, rules for tools hx does not have \(WebFetch, WebSearch\)/,
    );
  });
});
