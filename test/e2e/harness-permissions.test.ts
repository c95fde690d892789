// End to end: permissions from .hx/settings.json through the real binary, headless (no TTY).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HX_BIN, hxEnv } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { KEYS, statsLine, toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

const h = useHarness();

describe("permission rules from .hx/settings.json", () => {
  it("allow / ask / deny rules as a Claude Code user writes them: deny beats ask beats allow", async () => {
    execFileSync("git", ["init", "-q"], { cwd: h.work });
    writeSettings(h.work, {
      permissions: {
        allow: ["bash(git *)", "write_file(src/**)", "read_file"],
        ask: ["bash(git push*)"],
        deny: ["bash(git push --force*)", "write_file(src/secret/**)", "glob"],
      },
    });
    h.server
      .reply()
      .tool("bash", { command: "git status --short" })
      .tool("write_file", { path: "src/app.ts", content: "export {};\n" })
      .tool("write_file", { path: "src/secret/key.txt", content: "k" })
      .tool("bash", { command: "git push origin main" })
      .tool("bash", { command: "git push --force origin main" })
      .tool("glob", { pattern: "**/*" })
      .tool("read_file", { path: "src/app.ts" });
    h.server.reply().text("done");

    const run = await h.agent("work");

    expect(run.code).toBe(0);
    const results = toolResultsOf(h.server.requests[1]);
    expect(results).toHaveLength(7);
    // bash(git *) allows git status: it ran (no error, no denial).
    expect(results[0]).not.toContain("Permission denied");
    expect(results[0]).not.toContain("not a git repository");
    // write_file(src/**) allows the write.
    expect(results[1]).not.toContain("Permission denied");
    expect(readFileSync(path.join(h.work, "src/app.ts"), "utf8")).toBe("export {};\n");
    // The deny rule wins over the allow rule.
    expect(results[2]).toBe(
      "Permission denied: write_file(src/secret/key.txt) matches the deny rule write_file(src/secret/**) in your settings.",
    );
    expect(existsSync(path.join(h.work, "src/secret/key.txt"))).toBe(false);
    // The ask rule wins over the allow rule; headless, the ask is a denial that names the rule.
    expect(results[3]).toMatch(/^Permission denied: bash\(git push origin main\) matches the ask rule/);
    expect(results[3]).toContain("there is no terminal to ask");
    expect(results[3]).toContain("remove that ask rule");
    // The deny rule wins over the ask rule.
    expect(results[4]).toBe(
      "Permission denied: bash(git push --force origin main) matches the deny rule bash(git push --force*) in your settings.",
    );
    // A bare tool name covers every call of the tool (deny: glob; allow: read_file).
    expect(results[5]).toBe("Permission denied: glob(.) matches the deny rule glob in your settings.");
    expect(results[6]).toContain("export {};");
    expect(statsLine(run.stderr)).toMatch(/^turns=2 tool_calls=7 blocked=4 /);
    expect(run.stderr).toContain("  blocked: Permission denied: write_file(src/secret/key.txt)");
  });

  it("bash(git status*) allows `git status` but not `git status && <something else>`", async () => {
    execFileSync("git", ["init", "-q"], { cwd: h.work });
    writeSettings(h.work, { permissions: { allow: ["bash(git status*)"] } });
    h.server
      .reply()
      .tool("bash", { command: "git status" })
      .tool("bash", { command: "git status && touch sneaked.txt" });
    h.server.reply().text("done");

    const run = await h.agent("status");

    const results = toolResultsOf(h.server.requests[1]);
    expect(results[0]).toContain("No commits yet");
    expect(results[1]).toMatch(/^Permission denied: bash\(git status && touch sneaked\.txt\) runs a command/);
    expect(existsSync(path.join(h.work, "sneaked.txt"))).toBe(false);
    expect(statsLine(run.stderr)).toMatch(/blocked=1 /);
  });

  it("a write_file rule matches absolute and symlinked paths the same as relative ones", async () => {
    writeSettings(h.work, {
      permissions: { allow: ["write_file(src/**)"], deny: ["write_file(src/secret/**)"] },
    });
    mkdirSync(path.join(h.work, "src/secret"), { recursive: true });
    symlinkSync(path.join(h.work, "src/secret"), path.join(h.work, "alias"));
    // The project reached through a symlink: absolute paths through it are still inside src/.
    const linkedProject = path.join(tempDir("hx-link-"), "project");
    symlinkSync(h.work, linkedProject);
    h.server
      .reply()
      .tool("write_file", { path: path.join(h.work, "src/abs.ts"), content: "a" })
      .tool("write_file", { path: path.join(linkedProject, "src/via-link.ts"), content: "b" })
      .tool("write_file", { path: path.join(h.work, "src/secret/abs.txt"), content: "c" })
      .tool("write_file", { path: "alias/through-symlink.txt", content: "d" })
      .tool("write_file", { path: "./src/../src/dots.ts", content: "e" });
    h.server.reply().text("done");

    const run = await h.agent("write");
    expect(run.code).toBe(0);

    const results = toolResultsOf(h.server.requests[1]);
    expect(results[0]).not.toContain("Permission denied");
    expect(results[1]).not.toContain("Permission denied");
    expect(readFileSync(path.join(h.work, "src/abs.ts"), "utf8")).toBe("a");
    expect(readFileSync(path.join(h.work, "src/via-link.ts"), "utf8")).toBe("b");
    expect(results[2]).toBe(
      "Permission denied: write_file(src/secret/abs.txt) matches the deny rule write_file(src/secret/**) in your settings.",
    );
    expect(results[3]).toBe(
      "Permission denied: write_file(src/secret/through-symlink.txt) matches the deny rule write_file(src/secret/**) in your settings.",
    );
    expect(existsSync(path.join(h.work, "src/secret/abs.txt"))).toBe(false);
    expect(existsSync(path.join(h.work, "src/secret/through-symlink.txt"))).toBe(false);
    expect(results[4]).not.toContain("Permission denied");
    expect(readFileSync(path.join(h.work, "src/dots.ts"), "utf8")).toBe("e");
    expect(statsLine(run.stderr)).toMatch(/blocked=2 /);
  });

  it("settings copied from Claude Code work: Bash(...:*), Write(...), Edit, matcher Write|Edit", async () => {
    writeSettings(h.work, {
      permissions: {
        allow: ["Bash(echo:*)", "Write(src/**)"],
        deny: ["Edit", "Bash(echo secret:*)"],
      },
      hooks: {
        PreToolUse: [
          {
            matcher: "Write|Edit",
            hooks: [
              {
                type: "command",
                command: "grep -q generated && { echo 'generated files are read-only' >&2; exit 2; }; exit 0",
              },
            ],
          },
        ],
      },
    });
    h.server
      .reply()
      .tool("bash", { command: "echo hello" })
      .tool("bash", { command: "echo secret stuff" })
      .tool("write_file", { path: "src/a.ts", content: "a" })
      .tool("write_file", { path: "src/generated.ts", content: "g" })
      .tool("edit_file", { path: "src/a.ts", old_text: "a", new_text: "b" });
    h.server.reply().text("done");

    const run = await h.agent("go");

    const results = toolResultsOf(h.server.requests[1]);
    expect(results[0]).toBe("hello");
    expect(results[1]).toMatch(/matches the deny rule Bash\(echo secret:\*\)/);
    expect(readFileSync(path.join(h.work, "src/a.ts"), "utf8")).toBe("a");
    expect(results[3]).toBe("generated files are read-only");
    expect(existsSync(path.join(h.work, "src/generated.ts"))).toBe(false);
    expect(results[4]).toBe(
      "Permission denied: edit_file(src/a.ts) matches the deny rule Edit in your settings.",
    );
    expect(statsLine(run.stderr)).toMatch(/blocked=3 /);
  });

  it("rules from ~/.hx/settings.json and .hx/settings.local.json add up with the project's", async () => {
    const home = tempDir("hx-home-");
    mkdirSync(path.join(home, ".hx"));
    writeFileSync(
      path.join(home, ".hx/settings.json"),
      JSON.stringify({ permissions: { allow: ["bash(echo user*)"] } }),
    );
    writeSettings(h.work, { permissions: { deny: ["bash(echo user-denied*)"] } });
    writeSettings(h.work, { permissions: { allow: ["bash(echo local*)"] } }, "settings.local.json");
    h.server
      .reply()
      .tool("bash", { command: "echo user ok" })
      .tool("bash", { command: "echo local ok" })
      .tool("bash", { command: "echo user-denied" });
    h.server.reply().text("done");

    const run = await h.agent("echo", [], { env: { HOME: home } });

    const results = toolResultsOf(h.server.requests[1]);
    expect(results[0]).toBe("user ok");
    expect(results[1]).toBe("local ok");
    expect(results[2]).toMatch(/matches the deny rule bash\(echo user-denied\*\)/);
    expect(statsLine(run.stderr)).toMatch(/blocked=1 /);
  });
});

describe("permission modes", () => {
  /** One write and one command; what each mode does with them, headless and without rules. */
  const expectations = {
    default: { write: false, run: false, blocked: 2 },
    acceptEdits: { write: true, run: false, blocked: 1 },
    plan: { write: false, run: false, blocked: 2 },
    bypassPermissions: { write: true, run: true, blocked: 0 },
  } as const;

  const cases = Object.entries(expectations).flatMap(([mode, expected]) => [
    { mode, via: "--permission-mode", expected },
    { mode, via: "permissions.defaultMode", expected },
  ]);

  it.each(cases)("$mode via $via", async ({ mode, via, expected }) => {
    writeFileSync(path.join(h.work, "README.md"), "readme\n");
    if (via === "permissions.defaultMode") writeSettings(h.work, { permissions: { defaultMode: mode } });
    h.server
      .reply()
      .tool("write_file", { path: "notes.txt", content: "n" })
      .tool("bash", { command: "touch ran.txt" })
      .tool("read_file", { path: "README.md" });
    h.server.reply().text("done");

    const run = await h.agent("go", via === "--permission-mode" ? ["--permission-mode", mode] : []);

    expect(run.code).toBe(0);
    expect(existsSync(path.join(h.work, "notes.txt"))).toBe(expected.write);
    expect(existsSync(path.join(h.work, "ran.txt"))).toBe(expected.run);
    const results = toolResultsOf(h.server.requests[1]);
    // Reads are never refused.
    expect(results[2]).toContain("readme");
    for (const result of results.slice(0, 2)) {
      if (result.startsWith("Permission denied")) {
        if (mode === "plan") expect(result).toContain("plan mode is read-only");
        else expect(result).toContain("there is no terminal to ask");
      }
    }
    expect(statsLine(run.stderr)).toMatch(new RegExp(`^turns=2 tool_calls=3 blocked=${expected.blocked} `));
  });

  it("--permission-mode wins over permissions.defaultMode; a bad mode is a usage error", async () => {
    writeSettings(h.work, { permissions: { defaultMode: "plan" } });
    h.server.reply().tool("write_file", { path: "notes.txt", content: "n" });
    h.server.reply().text("done");
    const run = await h.agent("go", ["--permission-mode", "acceptEdits"]);
    expect(run.code).toBe(0);
    expect(existsSync(path.join(h.work, "notes.txt"))).toBe(true);

    const bad = await h.agent("go", ["--permission-mode", "yolo"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown permission mode 'yolo'. Use one of: default, acceptEdits, plan");
  });

  it("deny rules still hold in bypassPermissions", async () => {
    writeSettings(h.work, { permissions: { deny: ["write_file(*.lock)"] } });
    h.server.reply().tool("write_file", { path: "deps.lock", content: "x" });
    h.server.reply().text("done");
    const run = await h.agent("go", ["--permission-mode", "bypassPermissions"]);
    expect(toolResultsOf(h.server.requests[1])[0]).toMatch(
      /^Permission denied: .*deny rule write_file\(\*\.lock\)/,
    );
    expect(existsSync(path.join(h.work, "deps.lock"))).toBe(false);
    expect(statsLine(run.stderr)).toMatch(/blocked=1 /);
  });
});

describe("the block list", () => {
  it("refuses destructive commands even in bypassPermissions with an allow-all rule", async () => {
    writeSettings(h.work, { permissions: { allow: ["bash"] } });
    h.server
      .reply()
      .tool("bash", { command: "rm -rf /" })
      .tool("bash", { command: "sudo touch sudo-ran.txt" })
      .tool("bash", { command: "dd if=/dev/zero of=dd-ran.img count=1" })
      .tool("bash", { command: "true && bash -c 'sudo touch nested.txt'" })
      .tool("bash", { command: "echo sudo is just a word here" });
    h.server.reply().text("done");

    const run = await h.agent("clean up", ["--permission-mode", "bypassPermissions"]);

    const results = toolResultsOf(h.server.requests[1]);
    for (const result of results.slice(0, 4)) {
      expect(result).toMatch(/^Permission denied: bash\(.*\) is on hx's block list of destructive commands/);
      expect(result).toContain("no mode or rule allows it");
    }
    expect(results[0]).toContain("rm -r on /");
    expect(results[4]).toBe("sudo is just a word here");
    for (const file of ["sudo-ran.txt", "dd-ran.img", "nested.txt"]) {
      expect(existsSync(path.join(h.work, file))).toBe(false);
    }
    expect(statsLine(run.stderr)).toMatch(/^turns=2 tool_calls=5 blocked=4 /);
  });
});

describe("headless asking", () => {
  it("denies at once with a way to allow it, and hx exits by itself", async () => {
    h.server.reply().tool("bash", { command: "touch asked.txt" });
    h.server.reply().text("could not run it");

    // runHx kills hx after the timeout; a run that had to be killed has a signal and no code.
    const run = await h.agent("touch it", [], { timeoutMs: 15_000 });

    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    const denial = toolResultsOf(h.server.requests[1])[0];
    expect(denial).toBe(
      'Permission denied: bash(touch asked.txt) runs a command and no rule allows it, and there is no terminal to ask (bash(touch asked.txt) was not run). To allow it, add "bash(touch asked.txt)" or "bash(touch *)" to permissions.allow in .hx/settings.json, or run with --permission-mode bypassPermissions.',
    );
    expect(existsSync(path.join(h.work, "asked.txt"))).toBe(false);
    expect(run.stdout).toBe("could not run it\n");
    expect(statsLine(run.stderr)).toMatch(/^turns=2 tool_calls=1 blocked=1 /);
  });

  it("does not wait on a stdin pipe that stays open", async () => {
    h.server.reply().tool("write_file", { path: "x.txt", content: "x" });
    h.server.reply().text("denied");
    const child = spawn(process.execPath, [HX_BIN, "agent", "write x", ...h.args()], {
      env: hxEnv(KEYS),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    // stdin is never ended; a guard kills hx if it waits for an answer anyway.
    const guard = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on("close", (c, s) => resolve([c, s])),
    );
    clearTimeout(guard);
    child.stdin.destroy();

    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(toolResultsOf(h.server.requests[1])[0]).toContain("there is no terminal to ask");
    expect(stderr).toMatch(/blocked=1 /);
  });
});
