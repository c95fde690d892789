// The MCP conformance suite (`@modelcontextprotocol/conformance`, the protocol's own tests) run
// against the real `hx` binary: for each client scenario the suite starts its test server (and
// authorization server), runs test/conformance/hx-client.ts with the server's URL, which drives
// `hx agent` with the fake model server, and judges what hx sent. A scenario passes when the
// suite's run passes and none of its checks failed.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

const SUITE = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const SHIM = path.join(REPO_ROOT, "test/conformance/node20-fs-shim.mjs");
const CLIENT = `${path.join(REPO_ROOT, "node_modules/.bin/tsx")} ${path.join(REPO_ROOT, "test/conformance/hx-client.ts")}`;

function suite(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", SHIM, SUITE, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The suite's own list of client scenarios (all of them, extensions and drafts included). */
async function clientScenarios(): Promise<string[]> {
  const { output } = await suite(["list", "--client"]);
  return [...output.matchAll(/^ {2}- (\S+)/gm)].map((m) => m[1]);
}

/** The checks.json the suite wrote for one run. */
function checksOf(
  dir: string,
): Array<{ id: string; status: string; description?: string; errorMessage?: string }> {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "checks.json") found.push(full);
    }
  };
  walk(dir);
  return found.flatMap((file) => JSON.parse(readFileSync(file, "utf8")));
}

const scenarios = await clientScenarios();

describe("the MCP conformance suite's client scenarios against hx", () => {
  it("lists the 26 client scenarios of version 0.1.16", () => {
    expect(scenarios).toHaveLength(26);
  });

  for (const scenario of scenarios) {
    it(`passes ${scenario}`, { timeout: 90_000 }, async () => {
      const out = tempDir("hx-conformance-");
      const run = await suite([
        "client",
        "--command",
        CLIENT,
        "--scenario",
        scenario,
        "-o",
        out,
        "--timeout",
        "60000",
      ]);
      const failed = checksOf(out).filter((check) => check.status === "FAILURE");
      expect(failed, run.output).toEqual([]);
      expect(run.output).toMatch(/OVERALL: PASSED/);
      expect(run.code, run.output).toBe(0);
    });
  }
});
