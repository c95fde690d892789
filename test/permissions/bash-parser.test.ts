// The bash parser loads on first use only, from the built bundle.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HX_BIN, hxEnv, REPO_ROOT } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

/** Runs the built hx with the loader trace (test/fixtures/import-trace.mjs): what it required. */
function resolvedModules(args: string[]): string {
  const dir = tempDir("hx-lazy-");
  const trace = path.join(dir, "trace.txt");
  spawnSync(process.execPath, [HX_BIN, ...args], {
    cwd: dir,
    env: hxEnv({
      NODE_OPTIONS: `--import=${path.join(REPO_ROOT, "test/fixtures/import-trace.mjs")}`,
      HX_TRACE_IMPORTS: trace,
    }),
    encoding: "utf8",
  });
  return existsSync(trace) ? readFileSync(trace, "utf8") : "";
}

describe("loading the bash parser", () => {
  it("hx --version does not load web-tree-sitter; a permission check does", () => {
    expect(resolvedModules(["--version"])).not.toContain("web-tree-sitter");
    const checked = resolvedModules(["permissions", "check", "--", "git status"]);
    expect(checked).toContain("web-tree-sitter");
  });
});
