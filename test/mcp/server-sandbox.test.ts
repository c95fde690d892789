// Where a stdio MCP server runs: the placement rules (pure) and the policy read from settings.
import { describe, expect, it } from "vitest";
import { placeServer, resolveServerSandbox } from "../../src/mcp/server-sandbox.js";
import type { SandboxStatus } from "../../src/sandbox/types.js";
import { tempDir } from "../support/temp-dir.js";

const root = tempDir("hx-mcp-sbx-");
const policy = (settings: Parameters<typeof resolveServerSandbox>[0]["settings"] = {}, flag?: "off") =>
  resolveServerSandbox({ settings, flag, workspaceRoot: root, home: root });
const active: SandboxStatus = {
  state: "active",
  mode: "workspace-write",
  backend: "bubblewrap",
  network: true,
  writable: [root],
};
const unavailable = (required: boolean): SandboxStatus => ({
  state: "unavailable",
  mode: "workspace-write",
  reason: "bubblewrap (bwrap) is not installed",
  fix: "install bubblewrap",
  required,
});
const stdio = { command: "node", args: ["server.js"] };

describe("MCP server sandbox policy", () => {
  it("keeps the bash sandbox's files rules but turns the network on unless mcp.sandboxNetwork is false", () => {
    const on = policy({ sandbox: { network: false } });
    expect(on.enabled).toBe(true);
    expect(on.options).toMatchObject({ mode: "workspace-write", network: true, workspaceRoot: root });
    expect(policy({ mcp: { sandboxNetwork: false } }).options.network).toBe(false);
  });

  it("is off with mcp.sandbox false, sandbox.mode off or --sandbox off, saying which", () => {
    expect(policy({ mcp: { sandbox: false } })).toMatchObject({
      enabled: false,
      offReason: "mcp.sandbox is false in the settings",
    });
    expect(policy({ sandbox: { mode: "off" } })).toMatchObject({ enabled: false });
    expect(policy({}, "off")).toMatchObject({ enabled: false, offReason: "the sandbox mode is off" });
  });
});

describe("placeServer", () => {
  it("sandboxes stdio servers where the sandbox runs, naming backend, mode and network", () => {
    expect(placeServer(stdio, policy(), active)).toEqual({
      sandboxed: true,
      text: "sandboxed (bubblewrap, workspace-write), network on",
    });
    expect(placeServer(stdio, policy({ mcp: { sandboxNetwork: false } }), active).text).toContain(
      "network off",
    );
  });

  it("says why a server is not sandboxed, and refuses it when the sandbox is required", () => {
    expect(placeServer({ ...stdio, sandbox: false }, policy(), active)).toEqual({
      sandboxed: false,
      text: 'not sandboxed ("sandbox": false in its entry)',
    });
    expect(placeServer(stdio, policy({ mcp: { sandbox: false } }), active).text).toBe(
      "not sandboxed (mcp.sandbox is false in the settings)",
    );
    expect(placeServer(stdio, policy(), unavailable(false))).toEqual({
      sandboxed: false,
      text: "not sandboxed: the OS sandbox cannot start (bubblewrap (bwrap) is not installed)",
    });
    expect(placeServer(stdio, policy(), unavailable(true))).toMatchObject({
      sandboxed: false,
      refused: true,
    });
    // The entry's explicit opt-out wins over `required`: it is the user's own choice.
    expect(placeServer({ ...stdio, sandbox: false }, policy(), unavailable(true)).refused).toBeUndefined();
    expect(placeServer({ type: "http", url: "http://127.0.0.1:9/mcp" }, policy(), active)).toEqual({
      sandboxed: false,
      text: "remote: no local process",
    });
  });
});
