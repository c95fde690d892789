#!/usr/bin/env node
// Launcher: runs the bundled CLI. CommonJS on purpose: Node starts a CommonJS file faster
// than an ES module, and `hx --version` answers here without loading the bundle (npm run bench
// holds it to 1.2x a bare `node -e 0`). After a fresh clone without install, it says how to
// build instead of printing a stack trace.
"use strict";
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.on("error", () => {}); // `hx --version | true` is not an error
  process.stdout.write(`${require("../package.json").version}\n`);
} else {
  const { existsSync } = require("node:fs");
  const path = require("node:path");
  const { pathToFileURL } = require("node:url");
  const bundle = path.join(__dirname, "..", "dist", "hx.js");
  if (!existsSync(bundle)) {
    process.stderr.write(
      "hx: the CLI is not built (dist/hx.js is missing). Run `npm ci` or `npm run build` in the hx folder.\n",
    );
    process.exit(1);
  }
  import(pathToFileURL(bundle).href);
}
