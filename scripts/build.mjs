// Bundles the CLI into dist/ with esbuild. Provider SDKs end up in their own chunks, loaded
// only when that provider is chosen; the ripgrep package stays external (it locates its
// platform binary at run time), and so does web-tree-sitter (it loads its .wasm next to
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

try {
  const toolSchemas = await builtInToolSchemas();
  const result = await build({
    entryPoints: { hx: "src/cli/main.ts" },
    outdir: next,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    minify: true,
    external: ["@vscode/ripgrep", "web-tree-sitter"],
    chunkNames: "chunks/[name]-[hash]",
    banner: REQUIRE_BANNER,
    define: { __HX_VERSION__: JSON.stringify(version), __HX_TOOL_SCHEMAS__: JSON.stringify(toolSchemas) },
    plugins: [withoutSdkAjv],
    logLevel: "warning",
    metafile: process.env.HX_BUILD_METAFILE !== undefined,
  });
  // For start-up work: which sources went into which chunk (`HX_BUILD_METAFILE=meta.json`).
  if (process.env.HX_BUILD_METAFILE)
    writeFileSync(process.env.HX_BUILD_METAFILE, JSON.stringify(result.metafile));
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(next, dist);
} finally {
  rmSync(next, { recursive: true, force: true });
  rmSync(old, { recursive: true, force: true });
}
