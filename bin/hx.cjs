#!/usr/bin/env node
// Launcher: runs the bundled CLI. `npm ci` builds it (the prepare script); after a fresh
// clone without install, say how to build instead of printing a stack trace.
import { existsSync } from "node:fs";

const bundle = new URL("../dist/hx.js", import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write(
    "hx: the CLI is not built (dist/hx.js is missing). Run `npm ci` or `npm run build` in the hx folder.\n",
  );
  process.exit(1);
}
await import(bundle.href);
