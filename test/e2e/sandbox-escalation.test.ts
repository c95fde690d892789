// End to end: the orchestrator's last step. A command the OS sandbox refused is offered to the
// user for a re-run with more (never to the model); headless, the refusal goes to the model.
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backend, skipReason } from "../sandbox/sandbox-support.js";
import { tempDir } from "../support/temp-dir.js";
import { runHxInTerminal, toolResultsOf, useHarness } from "./harness-support.js";

const h = useHarness();
const bypass = ["--permission-mode", "bypassPermissions"];
const offer = (command: string) => `Run bash(${command}) again outside it?`;

/**
 * A folder outside the workspace that the sandbox shows read-only: one in the run's own HOME
 * (a temp folder; the sandbox's private /tmp would hide a plain temp folder instead).
 */
function outsideFolder(): { home: string; outside: string; env: Record<string, string> } {
  const home = realpathSync(tempDir("hx-home-"));
  const outside = path.join(home, "elsewhere");
  mkdirSync(outside);
  return { home, outside, env: { HOME: home } };
}

describe(`a sandbox refusal offered to the user${skipReason}`, () => {
  it.skipIf(!backend.ok)("yes: the call runs again outside the sandbox and the write lands", async () => {
    const { outside, env } = outsideFolder();
    const command = `touch '${outside}/marker'`;
    h.server.reply().tool("bash", { command });
    h.server.reply().text("done");
    const run = await runHxInTerminal(["agent", "mark it", ...h.args(), ...bypass], {
      cwd: h.work,
      env,
      steps: [{ expect: offer(command), send: "y\r" }],
    });
    expect(run.error, run.output).toBeUndefined();
    expect(run.code).toBe(0);
    expect(run.output).toContain(`The sandbox refused a write to ${outside}/marker (Read-only file system).`);
    expect(existsSync(path.join(outside, "marker"))).toBe(true);
    // The model sees only the outcome: the re-run's (empty) output, no refusal.
    const result = toolResultsOf(h.server.requests[1])[0];
    expect(result).toBe("(no output)");
  });

  it.skipIf(!backend.ok)(
    "always: the folder is writable for the session, later calls are not asked",
    async () => {
      const { outside, env } = outsideFolder();
      const first = `touch '${outside}/one'`;
      const second = `touch '${outside}/two'`;
      h.server.reply().tool("bash", { command: first });
      h.server.reply().tool("bash", { command: second });
      h.server.reply().text("done");
      const run = await runHxInTerminal(["agent", "mark both", ...h.args(), ...bypass], {
        cwd: h.work,
        env,
        steps: [{ expect: `[a] yes, and let commands write ${outside} for this session`, send: "a\r" }],
      });
      expect(run.error, run.output).toBeUndefined();
      expect(existsSync(path.join(outside, "one"))).toBe(true);
      expect(existsSync(path.join(outside, "two"))).toBe(true);
      expect(run.output).not.toContain(offer(second));
    },
  );

  it.skipIf(!backend.ok)("no: nothing runs outside the sandbox and the model gets the refusal", async () => {
    const { outside, env } = outsideFolder();
    const command = `touch '${outside}/marker'`;
    h.server.reply().tool("bash", { command });
    h.server.reply().text("understood");
    const run = await runHxInTerminal(["agent", "mark it", ...h.args(), ...bypass], {
      cwd: h.work,
      env,
      steps: [{ expect: offer(command), send: "n\r" }],
    });
    expect(run.error, run.output).toBeUndefined();
    expect(run.code).toBe(0);
    expect(existsSync(path.join(outside, "marker"))).toBe(false);
    const result = toolResultsOf(h.server.requests[1])[0];
    expect(result).toContain("Read-only file system");
    expect(result).toContain("Exit code: 1");
    expect(result).toContain("[hx sandbox:");
  });

  it.skipIf(!backend.ok)("headless: nobody is asked, the model gets the refusal", async () => {
    const { outside, env } = outsideFolder();
    const command = `touch '${outside}/marker'`;
    h.server.reply().tool("bash", { command });
    h.server.reply().text("understood");
    const run = await h.agent("mark it", bypass, { env });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("again outside it?");
    expect(existsSync(path.join(outside, "marker"))).toBe(false);
    expect(toolResultsOf(h.server.requests[1])[0]).toContain("Read-only file system");
  });
});
