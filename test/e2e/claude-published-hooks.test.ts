// End to end: Claude Code hooks published on npm (test/support/published-hooks.ts), run as
// they ship through the real binary against the fake model server. Each must behave as in
// Claude Code: the validator and the guards block (the command does not run, the model reads
// why), the formatter rewrites the file on disk, the SessionStart hook's context is in the first
// request, the Stop gate sends the model back until the work is done.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  BLOCK_NO_VERIFY_BIN,
  CLAUDE_CODE_PLUGINS,
  CLAUDE_CODE_TTS,
  DEV_ENV_SETUP,
  HAS_MAKE,
  HAS_PYTHON,
  PRETTIER_BIN,
  pluginHooks,
  QUALITY_GATE,
  SELFISH,
  SENSITIVE_CANARY,
  versionOf,
} from "../support/published-hooks.js";
import { runHx } from "../support/run-hx.js";
import { HAS_JQ } from "../support/safety-net.js";
import { tempDir } from "../support/temp-dir.js";
import {
  commandHook,
  KEYS,
  messagesOf,
  toolResultsOf,
  useHarness,
  writeSettings,
} from "./harness-support.js";

const h = useHarness();
const bypass = ["--permission-mode", "bypassPermissions"];
/** Everything the model server was sent, as one string. */
const allRequests = () => JSON.stringify(h.server.requests.map((request) => request.body));
const git = (...args: string[]) => execFileSync("git", args, { cwd: h.work, encoding: "utf8" });

/** A git repository with one commit and uncommitted work in work.txt. */
function repoWithWork(): string {
  git("init", "-q");
  git("config", "user.email", "t@t");
  git("config", "user.name", "t");
  writeFileSync(path.join(h.work, "work.txt"), "committed\n");
  git("add", ".");
  git("commit", "-qm", "init");
  writeFileSync(path.join(h.work, "work.txt"), "uncommitted work\n");
  return path.join(h.work, "work.txt");
}

/** selfish-pipeline's hooks act while its pipeline runs: `.claude/.selfish-active` names the feature. */
function startSelfishPipeline(feature: string, phase = "implement"): void {
  mkdirSync(path.join(h.work, ".claude"), { recursive: true });
  writeFileSync(path.join(h.work, ".claude", ".selfish-active"), `${feature}\n`);
  writeFileSync(path.join(h.work, ".claude", ".selfish-phase"), `${phase}\n`);
}

describe("a Bash validator: block-no-verify (exit 2)", () => {
  it("blocks git commit --no-verify; a plain commit goes through", async () => {
    // As its README sets it up for Claude Code: a PreToolUse hook on Bash.
    writeSettings(h.work, {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [commandHook(`node "${BLOCK_NO_VERIFY_BIN}"`)] }] },
    });
    repoWithWork();
    git("add", ".");
    h.server.reply().tool("bash", { command: "git commit --no-verify -m wip" });
    h.server.reply().tool("bash", { command: "git commit -q -m 'real work'" });
    h.server.reply().text("ok");
    await h.agent("commit", bypass);
    expect(toolResultsOf(h.server.requests[1])[0]).toContain(
      "BLOCKED: --no-verify flag is not allowed with git commit.",
    );
    expect(git("log", "--format=%s")).toBe("real work\ninit\n");
  });
});

describe.skipIf(!HAS_JQ)("a JSON-deciding guard: selfish-pipeline's Bash guard (permissionDecision)", () => {
  const guard = () => ({
    hooks: { PreToolUse: pluginHooks(SELFISH, "PreToolUse", "selfish-bash-guard.sh") },
  });

  it("denies git reset --hard while its pipeline runs; its suggested command is not run instead", async () => {
    writeSettings(h.work, guard());
    startSelfishPipeline("login-form");
    const work = repoWithWork();
    h.server.reply().tool("bash", { command: "git reset --hard" });
    h.server.reply().text("ok");
    await h.agent("reset", bypass);
    // Neither the reset nor the `git stash` its deny carries as updatedInput ran.
    expect(readFileSync(work, "utf8")).toBe("uncommitted work\n");
    expect(git("stash", "list")).toBe("");
    expect(toolResultsOf(h.server.requests[1])[0]).toContain(
      "SELFISH GUARD: git reset --hard is blocked during pipeline. Safe alternative: git stash",
    );
  });

  it("its allow (no hookEventName, as it prints it) lets a call run headless in default mode", async () => {
    writeSettings(h.work, guard());
    h.server.reply().tool("bash", { command: "touch ran" });
    h.server.reply().text("ok");
    await h.agent("go");
    expect(existsSync(path.join(h.work, "ran"))).toBe(true);
  });
});

describe("a secrets guard: sensitive-canary", () => {
  // Its plugin's matcher, with the built hook (its hooks.json runs the TypeScript sources with a
  // Node 22 flag; the built file is the same code).
  const canary = () => ({
    hooks: {
      PreToolUse: [
        {
          matcher: "Read|NotebookRead|Bash|Grep|mcp__.*",
          hooks: [commandHook(`node "${path.join(SENSITIVE_CANARY, "dist", "pre-tool-use-hook.js")}"`)],
        },
      ],
    },
  });

  it("blocks reading .env with read_file and with cat: the secret never reaches the model", async () => {
    writeSettings(h.work, canary());
    writeFileSync(path.join(h.work, ".env"), "API_TOKEN=sk-live-do-not-leak\n");
    h.server.reply().tool("read_file", { path: ".env" }).tool("bash", { command: "cat .env" });
    h.server.reply().text("ok");
    await h.agent("read the env", bypass);
    const [read, cat] = toolResultsOf(h.server.requests[1]);
    expect(read).toContain(`sensitive-canary blocked: ${path.join(h.work, ".env")}`);
    expect(read).toContain("Blocked: .env and .env.* files contain secrets");
    expect(cat).toContain("sensitive-canary blocked");
    expect(allRequests()).not.toContain("sk-live-do-not-leak");
  });

  it("its UserPromptSubmit hook refuses a prompt carrying a token: nothing reaches the model", async () => {
    writeSettings(h.work, {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              commandHook(`node "${path.join(SENSITIVE_CANARY, "dist", "user-prompt-submit-hook.js")}"`),
            ],
          },
        ],
      },
    });
    const token = `ghp_${"1234567890abcdefghijklmnopqrstuvwxyzAB"}`;
    const run = await h.agent(`push with my token ${token}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("hx: the prompt was refused:");
    expect(run.stderr).toContain("[Secret] GitHub Personal Access Token (github-pat)");
    expect(h.server.requests).toHaveLength(0);
  });

  it("reads the user's prompt from transcript_path: [allow-secret] typed by the user lets the read through", async () => {
    writeSettings(h.work, canary());
    writeFileSync(path.join(h.work, ".env"), "API_TOKEN=sk-live-allowed\n");
    h.server.reply().tool("read_file", { path: ".env" });
    h.server.reply().text("ok");
    await h.agent("[allow-secret] please read .env", bypass);
    expect(toolResultsOf(h.server.requests[1])[0]).toContain("API_TOKEN=sk-live-allowed");
  });
});

describe.skipIf(!HAS_JQ)("a formatter: selfish-pipeline's auto-format (PostToolUse, async)", () => {
  it("runs the project's prettier on the file the model wrote", async () => {
    writeSettings(h.work, {
      hooks: { PostToolUse: pluginHooks(SELFISH, "PostToolUse", "selfish-auto-format.sh") },
    });
    // A project with prettier installed, as the hook looks for it.
    writeFileSync(path.join(h.work, "package.json"), '{ "name": "app" }\n');
    mkdirSync(path.join(h.work, "node_modules", ".bin"), { recursive: true });
    symlinkSync(PRETTIER_BIN, path.join(h.work, "node_modules", ".bin", "prettier"));
    h.server.reply().tool("write_file", { path: "src/app.ts", content: "const x={a:1,b:'two'}" });
    h.server.reply().text("ok");
    await h.agent("write", bypass);
    expect(readFileSync(path.join(h.work, "src", "app.ts"), "utf8")).toBe('const x = { a: 1, b: "two" };\n');
  });
});

describe.skipIf(!HAS_JQ)("a failure hint: selfish-pipeline's PostToolUseFailure hook", () => {
  it("a command that exits non-zero is a failed call, as in Claude Code: its hint reaches the model", async () => {
    writeSettings(h.work, {
      hooks: {
        PostToolUseFailure: pluginHooks(SELFISH, "PostToolUseFailure", "selfish-failure-hint.sh"),
        // Claude Code runs PostToolUse only for calls that succeeded.
        PostToolUse: [
          { matcher: "Bash", hooks: [commandHook("cat > /dev/null; echo 'after a success' >&2; exit 2")] },
        ],
      },
    });
    startSelfishPipeline("login-form");
    h.server
      .reply()
      .tool("bash", { command: "shellcheck-not-installed scripts/*.sh" })
      .tool("bash", { command: "true" });
    h.server.reply().text("ok");
    await h.agent("lint", bypass);
    const [failed, succeeded] = toolResultsOf(h.server.requests[1]);
    expect(failed).toContain("command not found");
    expect(failed).toContain(
      "[PostToolUseFailure hook context] [SELFISH HINT] Check that the required tool is installed. (tool: Bash)",
    );
    expect(failed).not.toContain("after a success");
    expect(succeeded).toContain("after a success");
    expect(readFileSync(path.join(h.work, ".claude", ".selfish-failures.log"), "utf8")).toMatch(
      /^\d+ Bash: .*shellcheck-not-installed: command not found/,
    );
  });
});

describe("a SessionStart context injector: selfish-pipeline's session-start-context", () => {
  it("its pipeline state is in the model's first request", async () => {
    writeSettings(h.work, {
      hooks: { SessionStart: pluginHooks(SELFISH, "SessionStart", "session-start-context.sh") },
    });
    startSelfishPipeline("login-form");
    mkdirSync(path.join(h.work, ".claude", "selfish", "specs", "login-form"), { recursive: true });
    writeFileSync(
      path.join(h.work, ".claude", "selfish", "specs", "login-form", "tasks.md"),
      "- [x] form\n- [ ] validation\n- [ ] tests\n",
    );
    h.server.reply().text("ok");
    await h.agent("hello");
    expect(JSON.stringify(messagesOf(h.server.requests[0]))).toContain(
      "[SELFISH PIPELINE ACTIVE] Feature: login-form | Tasks: 1/3",
    );
  });
});

describe.skipIf(!HAS_JQ)("a Stop gate: selfish-pipeline's stop gate (exit 2 until CI passed)", () => {
  it("sends the model back until it has run CI; then it may stop", async () => {
    // The pipeline keeps its state in .claude/, which hx's sandbox keeps read-only for
    // commands (docs/sandbox.md); this project runs without it, as Claude Code does by default.
    writeSettings(h.work, {
      sandbox: { mode: "off" },
      hooks: { Stop: pluginHooks(SELFISH, "Stop", "selfish-stop-gate.sh") },
    });
    startSelfishPipeline("login-form", "implement");
    h.server.reply().text("all done");
    // The pipeline's own way to record a CI pass (its commands run it after the tests).
    const manage = path.join(SELFISH, "scripts", "selfish-pipeline-manage.sh");
    h.server.reply().tool("bash", { command: `npm --version && "${manage}" ci-pass` });
    h.server.reply().text("CI passed, done");
    const run = await h.agent("implement it", bypass);
    expect(run.stdout).toBe("CI passed, done\n");
    expect(h.server.requests).toHaveLength(3);
    expect(messagesOf(h.server.requests[1]).at(-1).content).toContain(
      "SELFISH GATE: CI has not been run. Pipeline 'login-form' Phase 'implement' requires passing the CI gate.",
    );
    expect(toolResultsOf(h.server.requests[2])[0]).toMatch(/CI passed at \d\d:\d\d:\d\d/);
    expect(existsSync(path.join(h.work, ".claude", ".selfish-ci-passed"))).toBe(true);
  });

  it("lets the model stop at once when no pipeline runs", async () => {
    writeSettings(h.work, { hooks: { Stop: pluginHooks(SELFISH, "Stop", "selfish-stop-gate.sh") } });
    h.server.reply().text("done");
    await h.agent("hi");
    expect(h.server.requests).toHaveLength(1);
  });
});

describe.skipIf(!HAS_JQ)("a plugin published on npm: selfish-pipeline through hx plugin add", () => {
  it("installs from its package folder; its guard blocks and its context arrives", async () => {
    const home = tempDir("hx-home-");
    const added = await runHx(["plugin", "add", SELFISH, "--yes"], { env: { HOME: home } });
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(
      `Installed plugin selfish ${versionOf("selfish-pipeline")} in ${path.join(home, ".hx", "plugins", "selfish")}`,
    );
    expect(added.stdout).toContain("commands: /analyze, /architect, /auto");
    startSelfishPipeline("login-form", "spec");
    const work = repoWithWork();
    h.server.reply().tool("bash", { command: "git reset --hard" });
    h.server.reply().text("ok");
    const run = await h.agent("reset", bypass, { env: { HOME: home } });
    expect(run.code).toBe(0);
    expect(readFileSync(work, "utf8")).toBe("uncommitted work\n");
    expect(toolResultsOf(h.server.requests[1])[0]).toContain("SELFISH GUARD: git reset --hard is blocked");
    expect(JSON.stringify(messagesOf(h.server.requests[0]))).toContain(
      "[SELFISH PIPELINE ACTIVE] Feature: login-form",
    );
    // Its prompt and agent hooks (Stop, TaskCompleted) and the events hx has no moment for are
    // skipped with a warning, never fatal.
    expect(run.stderr).toContain('a "agent" hook was ignored');
    expect(run.stderr).toContain("hooks.ConfigChange: hx has no ConfigChange moment; its hooks never run.");
  });
});

/** Copies a published settings file, unchanged, to the project's `.claude/<name>`. */
function copyToClaude(from: string, name: string): void {
  mkdirSync(path.join(h.work, ".claude", "hooks"), { recursive: true });
  copyFileSync(from, path.join(h.work, ".claude", name));
}

describe("settings files from real Claude Code projects, copied as they are into .claude/", () => {
  it("claude-dev-environment-setup's own .claude/settings.local.json: its allow rules apply in a trusted folder", async () => {
    copyToClaude(path.join(DEV_ENV_SETUP, ".claude", "settings.local.json"), "settings.local.json");
    repoWithWork();
    h.server
      .reply()
      .tool("bash", { command: "node -e \"require('fs').writeFileSync('by-node.txt', 'x')\"" })
      .tool("bash", { command: "git add work.txt" })
      .tool("bash", { command: "touch not-allowed.txt" });
    h.server.reply().text("ok");
    await h.agent("work");
    // `Bash(node:*)` and `Bash(git add:*)` allow those two headless; nothing allows touch.
    const [node, add, touch] = toolResultsOf(h.server.requests[1]);
    expect(node).not.toMatch(/Permission/);
    expect(add).not.toMatch(/Permission/);
    expect(touch).toMatch(/^Permission/);
    expect(existsSync(path.join(h.work, "by-node.txt"))).toBe(true);
    expect(git("diff", "--cached", "--name-only")).toBe("work.txt\n");
    expect(existsSync(path.join(h.work, "not-allowed.txt"))).toBe(false);
  });

  it.skipIf(!HAS_PYTHON)(
    "claude-code-plugins' prevent-direct-push.json as .claude/settings.json: its Python guard denies a push to main",
    async () => {
      const hooks = path.join(CLAUDE_CODE_PLUGINS, "hooks", "git");
      copyToClaude(path.join(hooks, "prevent-direct-push.json"), "settings.json");
      copyToClaude(path.join(hooks, "prevent-direct-push.py"), path.join("hooks", "prevent-direct-push.py"));
      repoWithWork();
      const remote = tempDir("hx-remote-");
      execFileSync("git", ["init", "-q", "--bare", remote]);
      git("remote", "add", "origin", remote);
      h.server.reply().tool("bash", { command: "git push origin main" });
      h.server.reply().text("ok");
      await h.agent("push", bypass);
      expect(toolResultsOf(h.server.requests[1])[0]).toContain("Direct push to main/develop is not allowed!");
      expect(execFileSync("git", ["-C", remote, "for-each-ref"], { encoding: "utf8" })).toBe("");
    },
  );

  it.skipIf(!HAS_JQ)(
    "claude-code-plugins' nextjs-code-quality-enforcer.json: a PostToolUse check on Write reads tool_response.success and reports back",
    async () => {
      copyToClaude(
        path.join(CLAUDE_CODE_PLUGINS, "hooks", "development-tools", "nextjs-code-quality-enforcer.json"),
        "settings.json",
      );
      h.server
        .reply()
        .tool("write_file", { path: "app/dashboard/page.tsx", content: "const Page = () => null;\n" })
        .tool("write_file", {
          path: "app/settings/page.tsx",
          content: "export default function Page() {\n  return null;\n}\n",
        });
      h.server.reply().text("ok");
      await h.agent("write the pages", bypass);
      const [bad, good] = toolResultsOf(h.server.requests[1]);
      expect(bad).toContain("[PostToolUse hook]");
      expect(bad).toContain("Page component must export default function");
      expect(bad).toContain(
        `Found 1 code quality issues in ${path.join(h.work, "app", "dashboard", "page.tsx")}`,
      );
      expect(good).not.toContain("[PostToolUse hook]");
    },
  );

  it("hx doctor lists them in effect and the key of theirs hx does not use", async () => {
    copyToClaude(path.join(DEV_ENV_SETUP, ".claude", "settings.local.json"), "settings.local.json");
    copyToClaude(path.join(CLAUDE_CODE_PLUGINS, "hooks", "git", "prevent-direct-push.json"), "settings.json");
    const doctor = await runHx(["doctor", "-C", h.work]);
    const claude = path.join(h.work, ".claude");
    expect(doctor.stdout).toContain(
      `settings: ${path.join(claude, "settings.json")} (project), ${path.join(claude, "settings.local.json")} (local)`,
    );
    expect(doctor.stdout).toContain(
      `${path.join(claude, "settings.json")}: not used by hx (Claude Code only): description`,
    );
    expect(doctor.stdout).toContain(
      ".claude/settings.json: hooks.PreToolUse (1 hook); .claude/settings.local.json: permissions.allow (5 rules)",
    );
  });

  it("claude-code-plugins' deny-sensitive-files.json as .claude/settings.json: Read(./.env) is denied, even untrusted", async () => {
    copyToClaude(
      path.join(CLAUDE_CODE_PLUGINS, "settings", "permissions", "deny-sensitive-files.json"),
      "settings.json",
    );
    writeFileSync(path.join(h.work, ".env"), "API_TOKEN=sk-live-do-not-leak\n");
    h.server.reply().tool("read_file", { path: ".env" });
    h.server.reply().text("ok");
    const run = await runHx(["agent", "read", ...bypass, ...h.args().filter((arg) => arg !== "--trust")], {
      env: KEYS,
    });
    expect(run.code).toBe(0);
    expect(toolResultsOf(h.server.requests[1])[0]).toMatch(/matches the deny rule Read\(\.\/\.env\)/);
    expect(allRequests()).not.toContain("sk-live-do-not-leak");
  });
});

describe("a JSON-deciding Stop loop: cc-dev-template's quality gate (decision: block until make build passes)", () => {
  /** The project as the package's project-setup skill sets it up: its template in .claude/hooks, its Stop hook. */
  function qualityGateProject(): void {
    copyToClaude(QUALITY_GATE, path.join("hooks", "quality-gate.cjs"));
    writeFileSync(
      path.join(h.work, ".claude", "settings.json"),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: "node .claude/hooks/quality-gate.cjs" }] }] },
      }),
    );
    writeFileSync(
      path.join(h.work, "Makefile"),
      'build:\n\t@test -f fixed.txt || { echo "src/app.c:3:1: error: expected fixed.txt"; exit 1; }\n',
    );
  }

  it.skipIf(!HAS_MAKE)("sends the build errors back to the model until the build passes", async () => {
    qualityGateProject();
    h.server.reply().text("done");
    h.server.reply().tool("write_file", { path: "fixed.txt", content: "ok\n" });
    h.server.reply().text("fixed");
    const run = await h.agent("build it", bypass);
    expect(run.stdout).toBe("fixed\n");
    expect(h.server.requests).toHaveLength(3);
    expect(messagesOf(h.server.requests[1]).at(-1).content).toMatch(
      /^Build failed \(attempt 1\/3\):\n {2}src\/app\.c:3:1: error: expected fixed\.txt\n/,
    );
    // Its `decision: "approve"` let the run end, and it cleared its retry count.
    expect(existsSync(path.join(h.work, ".claude", "hooks", ".quality-gate-retries"))).toBe(false);
  });

  it.skipIf(!HAS_MAKE)("gives up after its own 3 attempts", async () => {
    qualityGateProject();
    for (let i = 1; i <= 4; i++) h.server.reply().text(`done ${i}`);
    const run = await h.agent("build it", bypass);
    expect(h.server.requests).toHaveLength(4);
    expect(run.stdout).toBe("done 4\n");
    expect(messagesOf(h.server.requests[3]).at(-1).content).toContain("Max retries reached.");
  });
});

describe.skipIf(!HAS_PYTHON)("a transcript-reading Stop hook: claude-code-tts's stop.py", () => {
  it("finds the model's last answer in transcript_path (past tool calls and results) and hands it to its daemon", async () => {
    // Installed as its INSTALL.md says: the hook files in ~/.claude/hooks/tts, its Stop hook in
    // ~/.claude/settings.json (python3 for its `python`), `on` to turn speech on.
    const home = tempDir("hx-home-");
    const hookDir = path.join(home, ".claude", "hooks", "tts");
    cpSync(path.join(CLAUDE_CODE_TTS, ".claude", "hooks", "tts"), hookDir, { recursive: true });
    writeFileSync(path.join(hookDir, "on"), "");
    writeFileSync(
      path.join(home, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          Stop: [{ hooks: [{ type: "command", command: 'python3 "$HOME/.claude/hooks/tts/stop.py"' }] }],
        },
      }),
    );
    // The test stands in for its speech daemon, on the port the hook derives from its folder.
    const spoken: unknown[] = [];
    const daemon = createServer((socket) =>
      socket.on("data", (data) => {
        spoken.push(JSON.parse(data.toString()));
        socket.end('{"ok": true}\n');
      }),
    );
    const port = 49152 + Number(BigInt(`0x${createHash("md5").update(hookDir).digest("hex")}`) % 16384n);
    await new Promise<void>((resolve) => daemon.listen(port, "127.0.0.1", resolve));
    try {
      writeFileSync(path.join(h.work, "notes.txt"), "a\nb\nc\n");
      h.server.reply().text("Let me look.").tool("read_file", { path: "notes.txt" });
      h.server.reply().text("**All done**: the file has `3` lines.");
      await h.agent("count the lines", [], { env: { HOME: home } });
    } finally {
      await new Promise((resolve) => daemon.close(resolve));
    }
    expect(readFileSync(path.join(hookDir, "last.txt"), "utf8")).toBe("All done: the file has 3 lines.");
    expect(spoken).toEqual([
      expect.objectContaining({ cmd: "speak", text: "All done: the file has 3 lines." }),
    ]);
  });
});
