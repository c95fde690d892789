// Bundles the CLI into dist/ with esbuild. Provider SDKs end up in their own chunks, loaded
// only when that provider is chosen; the ripgrep package stays external (it locates its
// platform binary at run time).
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { hx: "src/cli/main.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  minify: true,
  keepNames: false,
  external: ["@vscode/ripgrep"],
  chunkNames: "chunks/[name]-[hash]",
  banner: {
    js: 'import { createRequire as __hxCreateRequire } from "node:module"; const require = __hxCreateRequire(import.meta.url);',
  },
  define: { __HX_VERSION__: JSON.stringify(version) },
  logLevel: "warning",
});
