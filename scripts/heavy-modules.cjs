// The modules of src/ that load a heavy library when they load: one of HEAVY_PACKAGES imported
// at their top, by themselves or by a module they import at their top (an `import()` inside a
// function does not count; `import type` is erased). `.dependency-cruiser.cjs` uses the list:
// a folder's index.ts never re-exports one (every importer of the index would load the library
// at start-up), and other folders import them by their own path.
const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

/** Libraries too big to load before they are needed (`test/e2e/start-up-loading.test.ts`, bench). */
const HEAVY_PACKAGES = [
  "zod",
  "yaml",
  "openai",
  "diff",
  "highlight.js",
  "web-tree-sitter",
  "@anthropic-ai/sdk",
  "@modelcontextprotocol/sdk",
  "@agentclientprotocol/sdk",
  "@mariozechner/pi-tui",
];

/** Static value imports and re-exports of a module: `import x from`, `export { y } from`. */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s+)?"([^"]+)"/gm;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Paths relative to `root` (`src/mcp/config.ts`), sorted. */
function heavyModules(root = path.join(__dirname, "..")) {
  const files = sourceFiles(path.join(root, "src"));
  const imports = new Map();
  const heavy = new Set();
  for (const file of files) {
    const local = [];
    for (const [, spec] of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      if (spec.startsWith(".")) local.push(path.resolve(path.dirname(file), spec.replace(/\.js$/, ".ts")));
      else if (HEAVY_PACKAGES.some((name) => spec === name || spec.startsWith(`${name}/`))) heavy.add(file);
    }
    imports.set(file, local);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [file, local] of imports) {
      if (!heavy.has(file) && local.some((target) => heavy.has(target))) {
        heavy.add(file);
        grew = true;
      }
    }
  }
  return [...heavy].map((file) => path.relative(root, file).split(path.sep).join("/")).sort();
}

module.exports = { heavyModules };
