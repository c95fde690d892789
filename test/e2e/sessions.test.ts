// End to end through the built binary: sessions survive `kill -9` and are continued with
// --continue / --resume; `hx sessions list`; a transcript cut mid-line; the REPL's /context,
// /compact and /resume driven through piped stdin.
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { HX_BIN, hxEnv, runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import {
  BYPASS,
  isSessionRequest,
  messagesOf,
  OPENAI_KEY,
  openaiArgs,
  pairingProblems,
  type WireMessage,
  waitFor,
} from "../support/wire.js";

let server: FakeModelServer;
let work: string;
let home: string;
const started: ChildProcess[] = [];

beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-sess-e2e-");
  home = tempDir("hx-home-");
});
afterEach(async () => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await server.close();
});

const env = (extra: Record<string, string> = {}) => ({ ...OPENAI_KEY, HOME: home, ...extra });
const hx = (args: string[], input?: string) => runHx(args, { env: env(), input });

/** Starts `hx agent <task>` directly, so the test can kill it; resolves on exit. */
function spawnAgent(
  task: string,
  extra: string[] = [],
): { child: ChildProcess; exited: Promise<NodeJS.Signals | null> } {
  const child = spawn(
    process.execPath,
    [HX_BIN, "agent", task, ...openaiArgs(server, work), ...BYPASS, ...extra],
    {
      env: hxEnv(env()),
      stdio: ["ignore", "ignore", "ignore"],
    },
  );
  started.push(child);
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once("exit", (_code, signal) => resolve(signal)),
  );
  return { child, exited };
}

function sessionFiles(): string[] {
  const root = path.join(home, ".hx/sessions");
  // hx's own session files; the Claude Code transcript for hooks is in claude/ beside them.
  return readdirSync(root).flatMap((dir) =>
    readdirSync(path.join(root, dir))
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => path.join(root, dir, f)),
  );
}

/** The messages after the system prompt, reduced to what the assertions read. */
function shape(messages: WireMessage[]): string[] {
  return messages.slice(1).map((m) => {
    if (m.role === "assistant")
      return `assistant:${(m.tool_calls ?? []).map((c: { function: { name: string } }) => c.function.name).join(",")}`;
    if (m.role === "tool") return `tool:${m.tool_call_id}`;
    return `${m.role}:${m.content}`;
  });
}

describe("kill -9, then --continue / --resume", () => {
  it("continues the latest session with its history, pairs intact, after the process was killed while waiting on the model", async () => {
    server.reply().tool("bash", { command: "echo first-output" }, { id: "call_1" });
    server
      .reply()
      .tool("write_file", { path: "a.txt", content: "alpha" }, { id: "call_2" })
      .tool("bash", { command: "cat a.txt" }, { id: "call_3" });
    server.hang();
    const { child, exited } = spawnAgent("build the thing");
    await waitFor(() => server.requests.length === 3, "the third request");
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    server.reply().text("continued fine");
    const run = await hx(["agent", "--continue", "go on", ...openaiArgs(server, work), ...BYPASS]);
    expect(run.stdout).toBe("continued fine\n");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/resuming session \S+: 6 messages/);

    const resumed = messagesOf(server.requests[3]);
    expect(resumed[0]).toEqual(messagesOf(server.requests[0])[0]);
    expect(shape(resumed)).toEqual([
      "user:build the thing",
      "assistant:bash",
      "tool:call_1",
      "assistant:write_file,bash",
      "tool:call_2",
      "tool:call_3",
      "user:go on",
    ]);
    expect(resumed[3].content).toContain("first-output");
    expect(resumed[6].content).toContain("alpha");
    expect(pairingProblems(resumed)).toEqual([]);
    // The same file goes on: one session, resumed.
    const files = sessionFiles();
    expect(files).toHaveLength(1);
    expect(readFileSync(files[0], "utf8")).toMatch(/"type":"resume"/);
  });

  it("gives a call interrupted by the kill a synthetic result; --resume takes an id prefix; sessions list is newest first", async () => {
    server.reply().text("old answer");
    expect((await hx(["agent", "an older task", ...openaiArgs(server, work)])).code).toBe(0);

    const pgidFile = path.join(work, "pgid");
    server.reply().tool("bash", { command: "echo $$ > pgid; sleep 30" }, { id: "call_slow" });
    // Unsandboxed, so `$$` is a real process group that outlives kill -9 and the test ends it.
    const { child, exited } = spawnAgent("the slow task", ["--sandbox", "off"]);
    await waitFor(
      () => existsSync(pgidFile) && readFileSync(pgidFile, "utf8").endsWith("\n"),
      "the slow command to start",
    );
    child.kill("SIGKILL");
    await exited;
    process.kill(-Number(readFileSync(pgidFile, "utf8")), "SIGKILL");

    const list = await hx(["sessions", "list", "-C", work]);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("the slow task");
    expect(lines[1]).toContain("an older task");
    const json = JSON.parse((await hx(["sessions", "list", "--json", "-C", work])).stdout);
    expect(json.map((s: { firstPrompt: string }) => s.firstPrompt)).toEqual([
      "the slow task",
      "an older task",
    ]);
    expect(json[0].messageCount).toBe(2);
    const [slow, older] = json.map((s: { id: string }) => s.id) as string[];
    expect(lines[0].startsWith(slow)).toBe(true);

    let prefix = "";
    while (older.startsWith(prefix)) prefix = slow.slice(0, prefix.length + 1);
    server.reply().text("checked, resuming");
    const run = await hx(["agent", "--resume", prefix, "go on", ...openaiArgs(server, work), ...BYPASS]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`resuming session ${slow}`);
    const resumed = messagesOf(server.requests.at(-1)!);
    expect(shape(resumed)).toEqual(["user:the slow task", "assistant:bash", "tool:call_slow", "user:go on"]);
    expect(resumed[3].content).toMatch(/^Error: interrupted\./);
    expect(pairingProblems(resumed)).toEqual([]);

    const ambiguous = await hx(["agent", "--resume", "2", "x", ...openaiArgs(server, work)]);
    expect(ambiguous.code).not.toBe(0);
    expect(ambiguous.stderr).toMatch(/matches 2 sessions/);
  });

  it("tolerates a transcript whose last line was cut, says so, and keeps the file readable afterwards", async () => {
    server.reply().tool("bash", { command: "echo kept" }, { id: "call_k" });
    server.reply().text("first done");
    expect((await hx(["agent", "first task", ...openaiArgs(server, work), ...BYPASS])).code).toBe(0);
    const [file] = sessionFiles();
    truncateSync(file, statSync(file).size - 5);

    server.reply().text("second done");
    const second = await hx(["agent", "--continue", "next", ...openaiArgs(server, work)]);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/last line was cut short/);
    const history = shape(messagesOf(server.requests[2]));
    expect(history.slice(0, 3)).toEqual(["user:first task", "assistant:bash", "tool:call_k"]);
    expect(history.at(-1)).toBe("user:next");
    expect(pairingProblems(messagesOf(server.requests[2]))).toEqual([]);

    // Appending after the cut line must not glue the next event onto it.
    server.reply().text("third done");
    const third = await hx(["agent", "--continue", "and again", ...openaiArgs(server, work)]);
    expect(third.code).toBe(0);
    expect(third.stderr).not.toMatch(/cut short/);
    expect(shape(messagesOf(server.requests[3]))).toEqual([...history, "assistant:", "user:and again"]);
    const parsed = readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .flatMap((line) => {
        try {
          return [JSON.parse(line).type as string];
        } catch {
          return ["unreadable"];
        }
      });
    expect(parsed.filter((type) => type === "unreadable")).toHaveLength(1);
    expect(parsed.filter((type) => type === "resume")).toHaveLength(2);
  });

  it("--continue without a saved session names the problem", async () => {
    const run = await hx(["agent", "--continue", "x", ...openaiArgs(server, work)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no saved session/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("the interactive session, stdin piped", () => {
  it("/context, /compact with a focus, and /resume run in order", async () => {
    server.reply().text("older answer");
    expect((await hx(["agent", "an older session", ...openaiArgs(server, work)])).code).toBe(0);
    const olderId = JSON.parse((await hx(["sessions", "list", "--json", "-C", work])).stdout)[0].id as string;

    server.reply().tool("bash", { command: "seq 1 300" });
    server.reply().text("counted to 300");
    server.reply().text("## Goal\ncount\n## Done\ncounted to 300 (summary)");
    server.reply().text("after resume");
    const input = [
      "/context",
      "count to 300",
      "/context",
      "/compact keep the counting",
      "/resume",
      `/resume ${olderId}`,
      "what was that",
      "/exit",
      "",
    ].join("\n");
    const run = await runHx([...openaiArgs(server, work), ...BYPASS, "--context-window", "32k"], {
      env: env(),
      input,
    });
    expect(run.code).toBe(0);
    const tables = [...run.stdout.matchAll(/Context: ([\d,]+) of 32,000 tokens used/g)].map((m) =>
      Number(m[1].replace(/,/g, "")),
    );
    expect(tables).toHaveLength(2);
    expect(tables[1]).toBeGreaterThan(tables[0] + 300);
    expect(run.stdout).toContain("counted to 300");
    expect(run.stderr).toMatch(/context compacted \(manual\): 3 message\(s\) summarised, 1 kept/);
    expect(`${run.stdout}${run.stderr}`.match(/message\(s\) summarised/g)).toHaveLength(1);

    const [, , summary, last] = server.requests.slice(1);
    expect(isSessionRequest(summary)).toBe(false);
    expect(summary.body.messages.at(-1).content).toContain("focus on: keep the counting");
    expect(summary.body.messages.at(-1).content).toContain("count to 300");

    // /resume lists both sessions, then loads the older one's history into the conversation.
    expect(run.stdout).toContain(olderId);
    expect(run.stdout).toMatch(/Resumed \S+: 2 messages/);
    expect(shape(messagesOf(last))).toEqual(["user:an older session", "assistant:", "user:what was that"]);
    expect(run.stdout).toContain("after resume");
    expect(server.pending()).toBe(0);

    // The REPL's own transcript holds what it continued from, so it resumes the same way.
    const replId = /hx --resume (\S+)/.exec(run.stderr)?.[1];
    expect(replId).toBeDefined();
    server.reply().text("still here");
    const again = await hx(["agent", "--resume", replId!, "one more", ...openaiArgs(server, work)]);
    expect(again.code).toBe(0);
    expect(shape(messagesOf(server.requests.at(-1)!))).toEqual([
      "user:an older session",
      "assistant:",
      "user:what was that",
      "assistant:",
      "user:one more",
    ]);
  });
});

describe("skills across --continue", () => {
  it("a skill loaded before is known as loaded after resuming: no second copy of its body", async () => {
    const dir = path.join(work, ".agents/skills/deploy");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "SKILL.md"),
      "---\nname: deploy\ndescription: How we deploy.\n---\nRun the deploy script.\n",
    );
    server.reply().tool("load_skill", { name: "deploy" });
    server.reply().text("loaded");
    expect((await hx(["agent", "load deploy", ...openaiArgs(server, work)])).code).toBe(0);

    server.reply().tool("load_skill", { name: "deploy" });
    server.reply().text("still loaded");
    const second = await hx(["agent", "--continue", "again", ...openaiArgs(server, work)]);
    expect(second.code).toBe(0);
    const last = server.requests.at(-1)?.body.messages as WireMessage[];
    const results = last.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(results[0]).toMatch(/^<skill name="deploy">/);
    expect(results[1]).toBe(
      "Skill 'deploy' is already loaded in this conversation; follow the instructions from the earlier load_skill result.",
    );
  });
});
