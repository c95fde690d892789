import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));

/** Runs `npm run cycles`' command (the repository's rules and report) on a made-up src/ tree. */
function checkImports(files: Record<string, string>): { code: number; output: string } {
  const dir = tempDir();
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext" } }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  try {
    const output = execFileSync(
      process.execPath,
      [
        path.join(repo, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"),
        "src",
        "--config",
        path.join(repo, ".dependency-cruiser.cjs"),
        "-T",
        `plugin:${path.join(repo, "scripts/import-report.mjs")}`,
      ],
      { cwd: dir, encoding: "utf8", stdio: "pipe" },
    );
    return { code: 0, output };
  } catch (error) {
    const failed = error as { status: number; stdout: string };
    return { code: failed.status, output: failed.stdout };
  }
}

describe("the folder layers (npm run check)", () => {
  it("passes imports that go down or stay in a layer", () => {
    const result = checkImports({
      "src/core/a.ts": "export const a = 1;\n",
      "src/tools/b.ts": 'import { a } from "../core/a.js";\nexport const b = a;\n',
      "src/providers/c.ts": 'import { b } from "../tools/b.js";\nexport const c = b;\n',
      "src/cli/d.ts": 'import { c } from "../providers/c.js";\nexport const d = c;\n',
    });
    expect(result.output).toContain("✔ imports: 0 problem(s)");
    expect(result.code).toBe(0);
  });

  it("fails on an upward import, a cycle between folders of one layer and a folder with no layer", () => {
    const result = checkImports({
      "src/core/a.ts": 'import type { D } from "../cli/d.js";\nexport type A = D;\n',
      "src/cli/d.ts": "export type D = string;\n",
      "src/tools/b.ts": 'import { c } from "../providers/c.js";\nexport const b = c;\n',
      "src/providers/c.ts": "export const c = 1;\n",
      "src/providers/e.ts": 'import { b } from "../tools/b.js";\nexport const e = b;\n',
      "src/newfolder/f.ts": 'import { c } from "../providers/c.js";\nexport const f = c;\n',
    });
    expect(result.output).toContain("error layer-ground: src/core/a.ts → src/cli/d.ts");
    expect(result.output).toMatch(/error folder-cycle: providers, tools import each other/);
    expect(result.output).toContain("error unranked-folder: src/newfolder/f.ts → src/providers/c.ts");
    expect(result.code).toBe(3);
  });
});
