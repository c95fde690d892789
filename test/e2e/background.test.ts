// End to end: background commands through the real binary — their end reaches the next request
// without polling, bash_output and bash_kill, and nothing is left running after hx exits.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BYPASS, messagesOf, toolNamesOf, toolResultsOf } from "../support/wire.js";
import { useHarness } from "./harness-support.js";

const h = useHarness();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("background commands", () => {
  it("announce their end in the next request; bash_output and bash_kill join the tools", async () => {
    h.server
      .reply()
      .tool("bash", { command: "sleep 0.3; echo job-finished; exit 3", run_in_background: true });
    h.server.reply().tool("bash", { command: "sleep 1.5; echo waited" });
    h.server.reply().tool("bash_output", { id: "bg1" });
    h.server.reply().text("done");

    const run = await h.agent("start it", BYPASS);

    expect(run.code).toBe(0);
    expect(toolResultsOf(h.server.requests[1])[0]).toBe(
      'Started in the background as bg1. bash_output {"id": "bg1"} shows its output; bash_kill stops it. You will be told when it ends.',
    );
    expect(toolNamesOf(h.server.requests[0])).not.toContain("bash_output");
    expect(toolNamesOf(h.server.requests[1])).toEqual(expect.arrayContaining(["bash_output", "bash_kill"]));
    const notices = messagesOf(h.server.requests[2]).filter(
      (m) => m.role === "user" && String(m.content).startsWith("<background>"),
    );
    expect(notices).toHaveLength(1);
    expect(String(notices[0].content)).toMatch(
      /^<background>\nbg1 \(sleep 0\.3; echo job-finished; exit 3\) exited with code 3 after \d+ s; last lines:\njob-finished\n\(bash_output shows more\)\n<\/background>$/,
    );
    // Read after it ended: what was not read yet, and the state.
    expect(toolResultsOf(h.server.requests[3]).at(-1)).toMatch(
      /^bg1 exited with code 3 after \d+ s\njob-finished$/,
    );
    // Announced once only.
    const later = messagesOf(h.server.requests[3]).filter((m) =>
      String(m.content).startsWith("<background>"),
    );
    expect(later).toHaveLength(1);
  });

  it("bash_output waits when asked; bash_kill stops a job; an unknown id names the known ones", async () => {
    h.server
      .reply()
      .tool("bash", { command: "for i in 1 2 3; do echo tick $i; sleep 0.2; done", run_in_background: true });
    h.server.reply().tool("bash_output", { id: "bg1", wait: 10 });
    h.server.reply().tool("bash", { command: "sleep 60", run_in_background: true });
    h.server.reply().tool("bash_kill", { id: "bg2" }).tool("bash_output", { id: "bg9" });
    h.server.reply().text("done");

    const run = await h.agent("jobs", BYPASS);

    expect(run.code).toBe(0);
    const results = toolResultsOf(h.server.requests[4]);
    expect(results[1]).toMatch(/^bg1 exited with code 0 after \d+ s\ntick 1\ntick 2\ntick 3$/);
    expect(results[3]).toMatch(/^bg2 stopped: killed after \d+ s\.$/);
    expect(results[4]).toBe("Error: no background job bg9; the session has bg1, bg2.");
  });

  it("a job still running when hx ends is ended with it, and the user is told", async () => {
    const pidFile = path.join(h.work, "pid.txt");
    h.server
      .reply()
      .tool("bash", { command: `echo $$ > ${pidFile}; exec sleep 300`, run_in_background: true });
    h.server.reply().tool("bash", { command: "sleep 0.5" });
    h.server.reply().text("leaving it");

    const run = await h.agent("serve", [...BYPASS, "--sandbox", "off", "--output-format", "json"]);

    expect(run.code).toBe(0);
    // The result says what was still running when the answer came.
    const result = JSON.parse(run.stdout);
    expect(result.result).toBe("leaving it");
    expect(result.background_ended_with_hx).toEqual([
      {
        id: "bg1",
        kind: "command",
        command: `echo $$ > ${pidFile}; exec sleep 300`,
        running_ms: expect.any(Number),
      },
    ]);
    expect(result.background_ended_with_hx[0].running_ms).toBeGreaterThanOrEqual(400);
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
    expect(run.stderr).toMatch(
      /background: ended with hx: bg1 \(echo \$\$ > .*; exec sleep 300, running for \d+ s\)/,
    );
  });
});
