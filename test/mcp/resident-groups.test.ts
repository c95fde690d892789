// Process groups of long-lived children (MCP servers): a signal hx handles itself (Ctrl-C
// cancelling a turn) leaves them running; commands' groups die with it as before.
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { ProcessGroups } from "../../src/process/process-groups.js";

const started: ProcessGroups[] = [];
afterEach(() => {
  for (const groups of started.splice(0)) groups.killAll();
});

function sleeper(groups: ProcessGroups): number {
  const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
  const pid = child.pid as number;
  groups.add(pid);
  started.push(groups);
  return pid;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(process.platform === "win32")("resident process groups", () => {
  it("survive a signal someone else handles; commands' groups do not", async () => {
    const handler = () => {};
    process.on("SIGHUP", handler);
    try {
      const server = sleeper(new ProcessGroups({ resident: true }));
      const command = sleeper(new ProcessGroups());
      process.emit("SIGHUP", "SIGHUP");
      await expect.poll(() => alive(command)).toBe(false);
      expect(alive(server)).toBe(true);
    } finally {
      process.off("SIGHUP", handler);
    }
  });

  it("are killed by killAll (hx's exit)", async () => {
    const groups = new ProcessGroups({ resident: true });
    const server = sleeper(groups);
    groups.killAll();
    await expect.poll(() => alive(server)).toBe(false);
  });
});
