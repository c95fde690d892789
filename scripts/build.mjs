// Bundles the CLI into dist/ with esbuild. Provider SDKs end up in their own chunks, loaded
// only when that provider is chosen; the ripgrep package stays external (it locates its
// platform binary at run time).
import { rmSync } from "node:fs";
import { build } from "esbuild";

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
  external: ["@vscode/ripgrep"],
  chunkNames: "chunks/[name]-[hash]",
  banner: {
    js: 'import { createRequire as __hxCreateRequire } from "node:module"; const require = __hxCreateRequire(import.meta.url);',
  },
  logLevel: "warning",
});
