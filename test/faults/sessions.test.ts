// Fault suite, sessions: two hx processes on one session, `kill -9` then `--continue`, and a
// corrupted transcript, each through the real binary with a scripted model. Every case checks
// the message, the exit code, and that no line of any session was lost or interleaved.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lockFileFor } from "../../src/transcript/lock.js";
import { projectKey } from "../../src/transcript/paths.js";
import { INTERRUPTED_RESULT, parseTranscript } from "../../src/transcript/reader.js";
import { HX_BIN, type HxRun, hxEnv, runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

interface Started {
  child: ChildProcess;
  done: Promise<HxRun>;
}

/** Starts `hx agent` with a script in `work`, sharing `home` (so sessions are shared). */
function startHx(
  work: string,
  home: string,
  task: string,
  replies: unknown[],
  extra: string[] = [],
): Started {
  const script = path.join(tempDir("hx-fault-script-"), "script.json");
  writeFileSync(script, JSON.stringify({ replies }));
  const args = [HX_BIN, "agent", task, "-C", work, "--provider", "scripted", "--script", script];
  const child = spawn(process.execPath, [...args, "--permission-mode", "bypassPermissions", ...extra], {
    cwd: work,
    env: hxEnv({ HOME: home }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d) => {
    stdout += d;
  });
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const done = new Promise<HxRun>((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { child, done };
}

const run = (work: string, home: string, task: string, replies: unknown[], extra: string[] = []) =>
  startHx(work, home, task, replies, extra).done;

/** A bash call that says it started, then waits until the test lets it go. */
const waitingCall = {
  toolCalls: [
    {
      name: "bash",
      arguments: {
        command:
          "touch started; for i in $(seq 1 600); do [ -e release ] && break; sleep 0.1; done; echo released",
      },
    },
  ],
};

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function sessionFiles(home: string, work: string): string[] {
  const dir = path.join(home, ".hx", "sessions", projectKey(realpathSync(work)));
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => path.join(dir, name));
}

function setup() {
  const work = tempDir("hx-fault-session-");
  const home = tempDir("hx-fault-home-");
  return { work, home };
}

describe("two processes, one session", () => {
  it("a second --continue on a live session forks a new one; neither file is mixed", async () => {
    const { work, home } = setup();
    expect((await run(work, home, "first task", [{ text: "ok" }])).code).toBe(0);
    const [original] = sessionFiles(home, work);

    const first = startHx(work, home, "wait for me", [waitingCall, { text: "first done" }], ["--continue"]);
    await until(() => existsSync(path.join(work, "started")), "the first run's tool call");
    const listed = await runHx(["sessions", "list", "-C", work], { cwd: work, env: { HOME: home } });
    expect(listed.stdout).toContain(`[in use by pid ${first.child.pid}]`);
    const second = await run(
      work,
      home,
      "second task",
      [{ expect: "wait for me", text: "second done" }],
      ["--continue"],
    );
    writeFileSync(path.join(work, "release"), "");
    const firstRun = await first.done;

    const id = path.basename(original, ".jsonl");
    expect(second.stderr).toContain(
      `session ${id} is in use by another hx (pid ${first.child.pid}); continuing in a new session`,
    );
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe("second done");
    expect(firstRun.code).toBe(0);
    expect(firstRun.stdout.trim()).toBe("first done");

    const files = sessionFiles(home, work);
    expect(files).toHaveLength(2);
    const kept = parseTranscript(readFileSync(original, "utf8"));
    expect(kept.warnings).toEqual([]);
    expect(kept.messages.map((m) => m.content)).toEqual([
      "first task",
      "ok",
      "wait for me",
      "",
      "released",
      "first done",
    ]);
    const fork = parseTranscript(readFileSync(files.find((f) => f !== original)!, "utf8"));
    expect(fork.warnings).toEqual([]);
    expect(fork.messages.map((m) => m.content)).toEqual([
      "first task",
      "ok",
      "wait for me",
      "",
      INTERRUPTED_RESULT, // the first run's call was still running when the fork was made
      "second task",
      "second done",
    ]);
    expect(existsSync(lockFileFor(original))).toBe(false);
  });

  it("kill -9 mid-call, then --continue: the same session is resumed, the call marked interrupted", async () => {
    const { work, home } = setup();
    const killed = startHx(work, home, "long job", [waitingCall, { text: "never" }]);
    await until(() => existsSync(path.join(work, "started")), "the tool call");
    killed.child.kill("SIGKILL");
    expect((await killed.done).signal).toBe("SIGKILL");
    writeFileSync(path.join(work, "release"), "");
    const [file] = sessionFiles(home, work);
    const before = readFileSync(file, "utf8");
    expect(existsSync(lockFileFor(file))).toBe(true); // left behind by the killed process

    const after = await run(
      work,
      home,
      "what happened?",
      [{ expect: "interrupted", text: "recovered" }],
      ["--continue"],
    );
    const id = path.basename(file, ".jsonl");
    expect(after.stderr).toContain(`resuming session ${id}: 3 messages`);
    expect(after.code).toBe(0);
    expect(after.stdout.trim()).toBe("recovered");
    expect(sessionFiles(home, work)).toEqual([file]);
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(before)).toBe(true); // nothing written before the crash was lost
    expect(parseTranscript(text).messages.map((m) => m.content)).toEqual([
      "long job",
      "",
      INTERRUPTED_RESULT,
      "what happened?",
      "recovered",
    ]);
    expect(existsSync(lockFileFor(file))).toBe(false);
  });
});

describe("corrupted transcripts", () => {
  it("--continue skips damaged lines with a warning each and keeps the rest; the session stays listed", async () => {
    const { work, home } = setup();
    const dir = path.join(home, ".hx", "sessions", projectKey(realpathSync(work)));
    mkdirSync(dir, { recursive: true });
    const line = (value: object) => `${JSON.stringify({ at: "2026-01-01T00:00:00Z", ...value })}\n`;
    writeFileSync(
      path.join(dir, "damaged.jsonl"),
      line({
        type: "session",
        version: 2,
        id: "damaged",
        cwd: realpathSync(work),
        provider: "scripted",
        model: "m",
      }) +
        line({ type: "message", message: { role: "user", content: "kept question" } }) +
        '{"type":"message","message":{"role":"assist\n' +
        line({ type: "message", message: { role: "assistant", content: "kept answer", toolCalls: [] } }) +
        line({ type: "compaction", trigger: "auto", summary: "x", messages: [{ role: "user" }] }) +
        line({ type: "history", reason: "repair", messages: "nope" }),
    );
    const listed = await runHx(["sessions", "list", "-C", work], { cwd: work, env: { HOME: home } });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^damaged .* 2 msgs {2}kept question$/m);
    const after = await run(work, home, "go on", [{ expect: "kept answer", text: "fine" }], ["--continue"]);
    expect(after.stderr).toContain("warning: session damaged: line 3: not valid JSON; skipped");
    expect(after.stderr).toMatch(/warning: session damaged: line 5: not a transcript event .*; skipped/);
    expect(after.stderr).toMatch(/warning: session damaged: line 6: not a transcript event .*; skipped/);
    expect(after.stderr).toContain("resuming session damaged: 2 messages");
    expect(after.code).toBe(0);
    expect(after.stdout.trim()).toBe("fine");
  });
});
