#!/usr/bin/env node
// Launcher: runs the bundled CLI. CommonJS on purpose: Node starts a CommonJS file faster
// than an ES module, and `hx --version` answers here without loading the bundle (npm run bench
// holds it to 1.2x a bare `node -e 0`). After a fresh clone without install, it says how to
// build instead of printing a stack trace.
//
// The bundle (dist/hx.cjs, one CommonJS file: scripts/build.mjs says why) is compiled through
// vm.Script with V8's code cache: the first run of each kind of command (agent, acp, the
// interactive session...) writes what V8 compiled to dist/.cache/ (or ~/.hx/cache/ where
// dist/ is not writable) as it exits or 3 s in, and later runs skip parsing and compiling the
// ~2 MB bundle. A cache V8 does not accept (another Node, other V8 flags) is ignored and
// written anew; a run about to change V8's flags writes it first, and one whose flags changed
// anyway writes none (V8 would refuse it). NODE_DISABLE_COMPILE_CACHE=1 turns it off.
"use strict";
const args = process.argv.slice(2);
/** When a run that is still going writes the code cache it lacks (see runBundle). */
const LONG_RUN_MS = 3000;
/** hx's subcommands (`hx --help`; test/e2e/compile-cache.test.ts keeps the two alike). */
const SUBCOMMANDS = [
  "agent",
  "context",
  "acp",
  "skills",
  "sessions",
  "tasks",
  "rewind",
  "worktree",
  "doctor",
  "permissions",
  "mcp",
  "plugin",
  "trust",
  "help",
];
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  // A direct write: creating process.stdout (a pipe's socket) would cost more than the answer.
  try {
    require("node:fs").writeSync(1, `${require("../package.json").version}\n`);
  } catch {} // `hx --version | true` closed the pipe: not an error
} else {
  const fs = require("node:fs");
  const path = require("node:path");
  const bundle = path.join(__dirname, "..", "dist", "hx.cjs");
  let source;
  try {
    source = fs.readFileSync(bundle, "latin1"); // ASCII only (scripts/build.mjs checks): the fastest decoding
  } catch {
    process.stderr.write(
      "hx: the CLI is not built (dist/hx.cjs is missing). Run `npm ci` or `npm run build` in the hx folder.\n",
    );
    process.exit(1);
  }
  runBundle(bundle, source);
}

/** Compiles and runs the bundle as a CommonJS module, with the code cache of this command. */
function runBundle(bundle, source) {
  const fs = require("node:fs");
  const Module = require("node:module");
  const vm = require("node:vm");
  // Node's own switch for its compile cache turns this one off too.
  const caches = process.env.NODE_DISABLE_COMPILE_CACHE ? [] : cacheFiles(bundle);
  let cachedData;
  for (const file of caches) {
    try {
      cachedData = fs.readFileSync(file);
      break;
    } catch {}
  }
  // The bundle is the wrapper function itself (scripts/build.mjs): compiled as it is.
  const script = new vm.Script(source, { filename: bundle, cachedData });
  if (caches.length > 0 && (cachedData === undefined || script.cachedDataRejected)) {
    // Only a run that writes the cache loads node:v8 (~2 ms): V8's own key for what a cache
    // fits, taken before the bundle runs and compared as hx exits.
    const v8 = require("node:v8");
    const tag = v8.cachedDataVersionTag();
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      if (v8.cachedDataVersionTag() === tag) writeCache(caches, script.createCachedData());
    };
    // As hx exits, or once it has been up a while: a long-lived process (hx acp, a session)
    // may well end by a signal, which runs no exit handler. And before hx changes V8's flags
    // itself (src/process/v8-flags.ts), which would make V8 refuse the cache.
    setTimeout(write, LONG_RUN_MS).unref();
    process.once("exit", write);
    globalThis[Symbol.for("hx.saveCodeCache")] = write;
  }
  const folder = require("node:path").dirname(bundle);
  const bundleModule = new Module(bundle, module);
  bundleModule.filename = bundle;
  bundleModule.paths = Module._nodeModulePaths(folder);
  const run = script.runInThisContext();
  run.call(
    bundleModule.exports,
    bundleModule.exports,
    Module.createRequire(bundle),
    bundleModule,
    bundle,
    folder,
  );
}

/**
 * Where this command's cache is looked for, in order: dist/.cache/ (replaced with dist/ by each
 * build), then ~/.hx/cache/, whose names carry the bundle's size and time so a rebuilt bundle
 * never meets an old cache. Not ~/.cache: sandboxed MCP servers may write there (package
 * caches), and a cache is code hx runs; ~/.hx is read-only to everything hx sandboxes, as
 * dist/ is wherever the bundle itself is. The name carries what V8 checks a cache against
 * (Node's version, the machine, the flags hx was started with), so two setups never overwrite
 * each other's cache in turn.
 */
function cacheFiles(bundle) {
  const path = require("node:path");
  const os = require("node:os");
  const flags = `${process.execArgv.join(" ")}\0${process.env.NODE_OPTIONS ?? ""}`;
  const name = `${cacheKind()}-${process.version}-${process.arch}-${fnv1a(flags)}.bin`;
  const stat = require("node:fs").statSync(bundle);
  return [
    path.join(path.dirname(bundle), ".cache", name),
    path.join(os.homedir(), ".hx", "cache", `${stat.size}-${Math.trunc(stat.mtimeMs)}-${name}`),
  ];
}

/** A short hash of a string (32-bit FNV-1a, hex): a file-name key, not a check. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

/**
 * Runs that compile much the same code share a cache: headless runs (with MCP servers named on
 * the command line or in ./.mcp.json apart: the MCP client is a good part of what they
 * compile), the ACP server, the interactive session (with or without a first prompt) and the
 * other subcommands. A wrong guess costs only speed.
 */
function cacheKind() {
  if (args[0] === "agent" || args.includes("-p") || args.includes("--print")) {
    const mcp = args.includes("--mcp-config") || require("node:fs").existsSync(".mcp.json");
    return mcp ? "agent-mcp" : "agent";
  }
  if (args[0] === "acp") return "acp";
  const first = args[0] ?? "";
  return SUBCOMMANDS.includes(first) || first === "--help" || first === "-h" ? "command" : "session";
}

/** Writes the cache to the first place that takes it: a temporary file renamed, so a reader never sees half. */
function writeCache(caches, data) {
  const fs = require("node:fs");
  const path = require("node:path");
  for (const file of caches) {
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(temporary, data);
      fs.renameSync(temporary, file);
      return;
    } catch {
      try {
        fs.rmSync(temporary, { force: true });
      } catch {}
    }
  }
}
