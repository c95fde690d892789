import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/bash.js";
import { processesMatching, uniqueSleep } from "../sandbox/sandbox-support.js";
import { setup } from "./helpers.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("bash", () => {
  it("runs in the workspace root and returns stdout and stderr together", async () => {
    const { root, call } = setup();
    const result = await call("bash", { command: "pwd; echo out; echo err >&2; echo out2" });
    expect(result.isError).toBeFalsy();
    expect(result.content).toBe(`${root}\nout\nerr\nout2`);
  });

  it("reports a non-zero exit as 'Exit code: N' and the exitCode field, without marking the result an error", async () => {
    const { call } = setup();
    const result = await call("bash", { command: "echo failing; exit 3" });
    expect(result).toEqual({ content: "failing\n\nExit code: 3", exitCode: 3 });
  });

  it("says (no output) when the command prints nothing", async () => {
    const { call } = setup();
    expect(await call("bash", { command: "true" })).toEqual({ content: "(no output)", exitCode: 0 });
    expect((await call("bash", { command: "exit 1" })).content).toBe("(no output)\n\nExit code: 1");
  });

  it("gives the command no stdin, so reading input ends at once", async () => {
    const { call } = setup();
    // With an open stdin, cat would wait until the 10 s timeout and the result would say so.
    const result = await call("bash", { command: 'cat; read -r line; echo "read status $?"', timeout: 10 });
    expect(result.content).toBe("read status 1");
  });

  it("on timeout kills the whole process group, background children included, and shows output so far", async () => {
    const { root, call } = setup();
    const marker = path.join(root, "late-write");
    const result = await call("bash", {
      command: `(sleep 1.5; echo late > '${marker}') & echo started; sleep 30`,
      timeout: 0.5,
    });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Error: the command timed out after 0\.5 s.*\n\nstarted$/s);
    await sleep(2000);
    expect(existsSync(marker)).toBe(false);
  });

  it("does not wait for background jobs that outlive the command", async () => {
    const { call } = setup();
    // The job holds the output pipe for 600 s: waiting for it would end in the 10 s timeout.
    const result = await call("bash", { command: "sleep 600 & echo done", timeout: 10 });
    expect(result).toEqual({ content: "done", exitCode: 0 });
  });

  it.skipIf(process.platform !== "linux")(
    "stops background jobs when the command ends, even those that left its process group",
    async () => {
      const { call } = setup();
      const [a, b, c] = [uniqueSleep(), uniqueSleep(), uniqueSleep()];
      const result = await call("bash", {
        command: `nohup sleep ${a} >/dev/null 2>&1 & setsid sleep ${b} >/dev/null 2>&1 & sleep ${c} & disown; echo started`,
      });
      expect(result.content).toBe("started");
      await sleep(200);
      const left = [a, b, c].flatMap((n) => processesMatching(`sleep ${n}`));
      // setsid leaves the group; on Linux the environment tag still finds it.
      expect(left).toEqual([]);
    },
  );

  it("gives commands hx's environment without secrets", async () => {
    const { call } = setup();
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: "sk-test-secret", HX_BASH_TEST_PLAIN: "visible" });
    try {
      const result = await call("bash", {
        command: 'echo "key=[$OPENAI_API_KEY] plain=$HX_BASH_TEST_PLAIN"',
      });
      expect(result.content).toBe("key=[] plain=visible");
    } finally {
      process.env = saved;
    }
  });

  it("on abort kills the process group and returns the cancellation error", async () => {
    const { root, call } = setup();
    const marker = path.join(root, "late-write");
    const controller = new AbortController();
    const pending = call("bash", { command: `(sleep 1.5; touch '${marker}') & sleep 30` }, controller.signal);
    setTimeout(() => controller.abort(), 300);
    const result = await pending;
    expect(result).toEqual({ content: "Error: the call was cancelled by the user.", isError: true });
    await sleep(2000);
    expect(existsSync(marker)).toBe(false);
  });

  it("caps long output, keeping head and tail, and saves the whole output where the note says", async () => {
    const { root, call } = setup();
    const result = await call("bash", { command: "seq 1 100000" });
    expect(result.content.length).toBeLessThanOrEqual(3_900);
    expect(result.content.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.content.endsWith("99999\n100000")).toBe(true);
    const note = result.content.match(
      /\[… [\d,]+ lines \([\d,]+ chars\) cut from the middle\. The full output is saved in (\S+); read the cut part with read_file \(path "\1", offset (\d+)\)/,
    );
    expect(note).not.toBeNull();
    expect(note![1]).toBe(".hx/tool-results/call-1.txt");
    const saved = readFileSync(path.join(root, note![1]), "utf8").split("\n");
    expect(saved.length).toBe(100_001);
    // The offset names the first line the model did not see.
    const shownHead = result.content.split("\n[…")[0].split("\n");
    expect(saved[Number(note![2]) - 1]).toBe(String(Number(shownHead[shownHead.length - 1]) + 1));
  });

  it("saves nothing when the output fits", async () => {
    const { root, call } = setup();
    expect((await call("bash", { command: "seq 1 1000" })).content).toMatch(/^1\n[\s\S]*\n1000$/);
    expect(existsSync(path.join(root, ".hx"))).toBe(false);
  });

  it("keeps the note exact when output overflows the in-memory buffer", async () => {
    const { root, call } = setup();
    // 3,000,000 lines of "y\n": 6,000,000 chars, more than the buffer keeps.
    const result = await call("bash", { command: "yes | head -n 3000000" });
    const note = result.content.match(/\[… ([\d,]+) lines \(([\d,]+) chars\) cut/);
    expect(note).not.toBeNull();
    const shownLines = result.content.split("\n").filter((line) => line === "y").length;
    expect(Number(note![1].replaceAll(",", "")) + shownLines).toBe(3_000_000);
    expect(result.content.length).toBeLessThanOrEqual(3_900);
    // Memory held head and tail only; the file holds every byte.
    expect(statSync(path.join(root, ".hx/tool-results/call-1.txt")).size).toBe(6_000_000);
  });

  it("rejects a timeout above the maximum through the registry", async () => {
    const { call } = setup();
    const result = await call("bash", { command: "true", timeout: 601 });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/invalid arguments for bash: timeout/);
  });

  it("uses the command as the permission rule subject", () => {
    expect(createBashTool().ruleSubject?.({ command: "git push origin" })).toBe("git push origin");
    expect(createBashTool().effect).toBe("execute");
  });
});
