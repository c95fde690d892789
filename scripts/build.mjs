// Bundles the CLI into one CommonJS file, dist/hx.cjs, with esbuild. One file because Node 20
// can cache V8's compiled code only for scripts it compiles itself (bin/hx.cjs loads the
// bundle through vm.Script with a code cache; ES modules get no cache before Node 22), and
// compiling ~60 ES modules was a third of a one-turn run. What a run does not need still does
// not run: every module imported with `import()` is wrapped by esbuild and initialised on
// first use, so the provider SDKs, zod, MCP and the full-screen UI cost a run that never uses
// them only their share of reading the file. The ripgrep package stays external (it locates
// its platform binary at run time), and so does web-tree-sitter (it loads its .wasm next to
// itself). The bundle is built next to dist/ and swapped in, so an hx that is running while
// someone rebuilds never finds dist/ half written.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = new URL("..", import.meta.url);
const dist = fileURLToPath(new URL("dist", root));
const next = `${dist}.next-${process.pid}`;
const old = `${dist}.old-${process.pid}`;
const { version } = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));

/** Bundled CommonJS code (commander, picomatch...) calls `require`; ES modules have none. */
const REQUIRE_BANNER = {
  js: 'import { createRequire as __hxCreateRequire } from "node:module"; const require = __hxCreateRequire(import.meta.url);',
};

/**
 * The bundle is one function expression, the CommonJS wrapper bin/hx.cjs would otherwise add
 * (a 2 MB string joined and flattened on every start); strict like the ES modules it comes from.
 */
const COMMONJS_WRAPPER = {
  banner: {
    js: '(function (exports, require, module, __filename, __dirname) { "use strict"; var __hxBundleUrl = require("node:url").pathToFileURL(__filename).href;',
  },
  footer: { js: "})" },
};

/**
 * The MCP SDK client imports Ajv as its default output-schema validator; hx always passes its
 * own (src/mcp/sdk-without-ajv.ts explains why), so the import is pointed at a stub.
 */
const withoutSdkAjv = {
  name: "mcp-sdk-without-ajv",
  setup(plugin) {
    plugin.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.includes("@modelcontextprotocol/sdk")
        ? { path: fileURLToPath(new URL("src/mcp/sdk-without-ajv.ts", root)) }
        : undefined,
    );
  },
};

/**
 * The built-in tools' JSON Schemas, computed from their zod schemas by scripts/tool-schemas.ts
 * (bundled and run here), so the CLI sends them without loading zod.
 */
async function builtInToolSchemas() {
  const script = `${next}-tool-schemas.mjs`;
  try {
    await build({
      entryPoints: [fileURLToPath(new URL("scripts/tool-schemas.ts", root))],
      outfile: script,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      external: ["@vscode/ripgrep", "web-tree-sitter"],
      banner: REQUIRE_BANNER,
      logLevel: "warning",
    });
    const { builtInToolSchemas } = await import(pathToFileURL(script).href);
    return builtInToolSchemas();
  } finally {
    rmSync(script, { force: true });
  }
}

/** `HX_BUILD_UNMINIFIED=1 npm run build`: names kept, for reading a CPU profile. */
const minify = process.env.HX_BUILD_UNMINIFIED === undefined;

try {
  const toolSchemas = await builtInToolSchemas();
  const result = await build({
    entryPoints: { hx: "src/cli/main.ts" },
    outdir: next,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    format: "cjs",
    // `import("x")` becomes a lazy `require`: the module initialises on first use.
    supported: { "dynamic-import": false },
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    minify,
    external: ["@vscode/ripgrep", "web-tree-sitter"],
    ...COMMONJS_WRAPPER,
    define: {
      __HX_VERSION__: JSON.stringify(version),
      // Caches of what this build computed (src/skills/discovery-cache.ts) are this build's alone.
      __HX_BUILD_ID__: JSON.stringify(`${version}+${Date.now().toString(36)}`),
      __HX_TOOL_SCHEMAS__: JSON.stringify(toolSchemas),
      "import.meta.url": "__hxBundleUrl",
    },
    plugins: [withoutSdkAjv],
    logLevel: "warning",
    metafile: process.env.HX_BUILD_METAFILE !== undefined,
  });
  // For start-up work: which sources went into which chunk (`HX_BUILD_METAFILE=meta.json`).
  if (process.env.HX_BUILD_METAFILE)
    writeFileSync(process.env.HX_BUILD_METAFILE, JSON.stringify(result.metafile));
  // bin/hx.cjs reads the bundle as Latin-1, the fastest decoding, which is exact for ASCII only
  // (esbuild escapes the rest; an unminified build, for profiling, keeps comments that are not).
  const bundle = readFileSync(`${next}/hx.cjs`);
  if (minify && bundle.some((byte) => byte > 0x7f))
    throw new Error("dist/hx.cjs holds a byte that is not ASCII");
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(next, dist);
} finally {
  rmSync(next, { recursive: true, force: true });
  rmSync(old, { recursive: true, force: true });
}
