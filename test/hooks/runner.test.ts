import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { HookPayload } from "../../src/hooks/events.js";
import { runCommandHook } from "../../src/hooks/runner.js";
import { tempDir } from "../support/temp-dir.js";

const payload: HookPayload = {
  hook_event_name: "PreToolUse",
  session_id: "s1",
  transcript_path: "/x/t.jsonl",
  cwd: "/x",
  permission_mode: "default",
  tool_name: "bash",
  tool_input: { command: "ls" },
};

describe("runCommandHook (real processes)", () => {
  it("exit 0: success with stdout; the payload arrives on stdin as JSON", async () => {
    const dir = tempDir();
    const file = path.join(dir, "payload.json");
    const outcome = await runCommandHook(`cat > '${file}'; echo ok`, payload, { cwd: dir, timeoutMs: 5000 });
    expect(outcome).toMatchObject({ kind: "success", stdout: "ok" });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(payload);
  });

  it("does not run the user's ~/.bashrc (bash reads it for -c when stdin is a socket and SHLVL < 2)", async () => {
    const home = tempDir();
    const marker = path.join(home, "bashrc-ran");
    writeFileSync(path.join(home, ".bashrc"), `touch '${marker}'; echo from-bashrc\n`);
    const outcome = await runCommandHook("cat > /dev/null; echo ok", payload, {
      cwd: home,
      timeoutMs: 5000,
      baseEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
    });
    expect(outcome).toMatchObject({ kind: "success", stdout: "ok" });
    expect(existsSync(marker)).toBe(false);
  });

  it("runs in cwd with HX_PROJECT_DIR and CLAUDE_PROJECT_DIR set", async () => {
    const dir = tempDir();
    const outcome = await runCommandHook('echo "$PWD|$HX_PROJECT_DIR|$CLAUDE_PROJECT_DIR"', payload, {
      cwd: dir,
      timeoutMs: 5000,
    });
    expect(outcome.stdout).toBe(`${dir}|${dir}|${dir}`);
  });

  it("exit 2: block, with stderr as the reason", async () => {
    const outcome = await runCommandHook("echo 'no pushes' >&2; exit 2", payload, {
      cwd: tempDir(),
      timeoutMs: 5000,
    });
    expect(outcome).toEqual({ kind: "block", stdout: "", stderr: "no pushes" });
  });

  it("other exit codes: failure naming the code and stderr", async () => {
    const outcome = await runCommandHook("echo broken >&2; exit 1", payload, {
      cwd: tempDir(),
      timeoutMs: 5000,
    });
    expect(outcome).toMatchObject({ kind: "failure", message: "exited with code 1: broken" });
  });

  it("a crash (killed by a signal) is a failure", async () => {
    const outcome = await runCommandHook("kill -SEGV $$", payload, { cwd: tempDir(), timeoutMs: 5000 });
    expect(outcome).toMatchObject({ kind: "failure", message: expect.stringContaining("SIGSEGV") });
  });

  it("a hook that hangs is killed at its timeout, with its whole process group", async () => {
    const dir = tempDir();
    const marker = path.join(dir, "survived");
    const outcome = await runCommandHook(`(sleep 1; touch '${marker}') & sleep 30`, payload, {
      cwd: dir,
      timeoutMs: 300,
    });
    expect(outcome).toMatchObject({
      kind: "failure",
      message: expect.stringContaining("timed out after 0.3s"),
    });
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(existsSync(marker)).toBe(false);
  });

  it("a spawn failure (missing cwd) is a failure, not a throw", async () => {
    const outcome = await runCommandHook("true", payload, { cwd: "/nonexistent/hx-dir", timeoutMs: 5000 });
    expect(outcome).toMatchObject({ kind: "failure", message: expect.stringContaining("could not start") });
  });

  it("a hook that ignores stdin does not break anything", async () => {
    const big = { ...payload, tool_input: { content: "x".repeat(1_000_000) } };
    const outcome = await runCommandHook("exit 0", big, { cwd: tempDir(), timeoutMs: 5000 });
    expect(outcome.kind).toBe("success");
  });

  it("an abort kills the hook", async () => {
    const controller = new AbortController();
    const pending = runCommandHook("sleep 30", payload, {
      cwd: tempDir(),
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ kind: "failure", message: "cancelled" });
  });
});
