// The bash parser loads on first use only, from the built bundle.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { HX_BIN, hxEnv } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

/** Runs the built hx with a module hook that reports every module it resolves. */
function resolvedModules(args: string[]): string {
  const dir = tempDir("hx-lazy-");
  const hooks = path.join(dir, "hooks.mjs");
  writeFileSync(
    hooks,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source written to a file
    "export async function resolve(specifier, context, next) { const r = await next(specifier, context); process.stderr.write(`RESOLVED ${r.url}\\n`); return r; }\n",
  );
  const register = path.join(dir, "register.mjs");
  writeFileSync(
    register,
    `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const run = spawnSync(process.execPath, ["--import", pathToFileURL(register).href, HX_BIN, ...args], {
    cwd: dir,
    env: hxEnv(),
    encoding: "utf8",
  });
  return run.stderr;
}

describe("loading the bash parser", () => {
  it("hx --version does not load web-tree-sitter; a permission check does", () => {
    expect(resolvedModules(["--version"])).not.toContain("web-tree-sitter");
    const checked = resolvedModules(["permissions", "check", "--", "git status"]);
    expect(checked).toContain("web-tree-sitter");
  });
});
