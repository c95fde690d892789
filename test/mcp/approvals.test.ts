import path from "node:path";
import { describe, expect, it } from "vitest";
import { approvalState, readApprovals, recordApprovals, resetApprovals } from "../../src/mcp/approvals.js";
import { parseServerEntries } from "../../src/mcp/config.js";
import { tempDir } from "../support/temp-dir.js";

const noTrust = { allProjectServers: false, enabled: [], disabled: [] };
const define = (scope: "project" | "user" | "local" | "flag", entry: unknown = { command: "run-it" }) =>
  parseServerEntries({ srv: entry }, { file: "/p/.mcp.json", scope }).servers[0];

describe("MCP approvals", () => {
  const file = () => path.join(tempDir("hx-approvals-"), ".hx", "mcp-approvals.json");

  it("starts user and --mcp-config servers; project ones wait for approval", () => {
    const store = readApprovals(file());
    expect(approvalState(define("user"), store, "/p", noTrust)).toBe("trusted");
    expect(approvalState(define("flag"), store, "/p", noTrust)).toBe("trusted");
    expect(approvalState(define("project"), store, "/p", noTrust)).toBe("pending");
    expect(approvalState(define("local"), store, "/p", noTrust)).toBe("pending");
    expect(approvalState(define("user", { command: "x", disabled: true }), store, "/p", noTrust)).toBe(
      "disabled",
    );
  });

  it("remembers answers per project and entry; a changed entry is asked again", async () => {
    const f = file();
    await recordApprovals(f, "/p", [define("project")], "approved");
    expect(approvalState(define("project"), readApprovals(f), "/p", noTrust)).toBe("approved");
    expect(approvalState(define("project"), readApprovals(f), "/other", noTrust)).toBe("pending");
    expect(
      approvalState(define("project", { command: "something-else" }), readApprovals(f), "/p", noTrust),
    ).toBe("pending");
    await recordApprovals(f, "/p", [define("project")], "declined");
    expect(approvalState(define("project"), readApprovals(f), "/p", noTrust)).toBe("declined");
    expect(await resetApprovals(f, "/p")).toBe(true);
    expect(approvalState(define("project"), readApprovals(f), "/p", noTrust)).toBe("pending");
  });

  it("'always' approves servers the project adds later", async () => {
    const f = file();
    await recordApprovals(f, "/p", [define("project")], "approved", { all: true });
    const later = parseServerEntries(
      { other: { command: "new" } },
      { file: "/p/.mcp.json", scope: "project" },
    ).servers[0];
    expect(approvalState(later, readApprovals(f), "/p", noTrust)).toBe("approved");
  });

  it("honours Claude Code's settings keys", () => {
    const store = readApprovals(file());
    expect(approvalState(define("project"), store, "/p", { ...noTrust, allProjectServers: true })).toBe(
      "trusted",
    );
    expect(approvalState(define("project"), store, "/p", { ...noTrust, enabled: ["srv"] })).toBe("trusted");
    expect(
      approvalState(define("project"), store, "/p", { ...noTrust, enabled: ["srv"], disabled: ["srv"] }),
    ).toBe("disabled");
  });
});
