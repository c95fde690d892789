import { describe, expect, it } from "vitest";
import { sandboxEscalation } from "../../src/sandbox/explain.js";

const context = { cwd: "/ws", workspaceRoot: "/ws", canAddWritable: true, networkOff: true };

describe("what a sandbox refusal offers the user", () => {
  it.each([
    ["touch: cannot touch '/home/me/out/x': Read-only file system", "/home/me/out/x"],
    ["bash: line 1: /home/me/out/x: Read-only file system", "/home/me/out/x"],
    ["OSError: [Errno 30] Read-only file system: '/home/me/out/x'", "/home/me/out/x"],
  ])("a refused write names the file and offers its folder: %s", (output, file) => {
    expect(sandboxEscalation(output, context)).toEqual({
      refused: `a write to ${file} (Read-only file system)`,
      session: { writable: "/home/me/out" },
    });
  });

  it("offers no folder inside the workspace (only protected paths are read-only there), at /, or in read-only mode", () => {
    expect(
      sandboxEscalation("bash: /ws/.git/config: Read-only file system", context)?.session,
    ).toBeUndefined();
    expect(sandboxEscalation("bash: /x: Read-only file system", context)?.session).toBeUndefined();
    expect(
      sandboxEscalation("bash: /home/me/x: Read-only file system", { ...context, canAddWritable: false })
        ?.session,
    ).toBeUndefined();
    expect(sandboxEscalation("EROFS", context)).toEqual({ refused: "a write (Read-only file system)" });
  });

  it("offers the network only when it is off, and nothing for other failures", () => {
    expect(sandboxEscalation("curl: (6) Could not resolve host: example.com", context)).toEqual({
      refused: "the network (it is off for commands)",
      session: { network: true },
    });
    expect(
      sandboxEscalation("curl: (6) Could not resolve host: example.com", { ...context, networkOff: false }),
    ).toBeUndefined();
    expect(sandboxEscalation("make: *** [all] Error 2", context)).toBeUndefined();
  });
});
