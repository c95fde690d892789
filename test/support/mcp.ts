// MCP servers for tests: the real reference servers from npm (pinned dev dependencies) and
// hx's own fixture server (test/fixtures/mcp/fixture-server.mjs).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach } from "vitest";
import { REPO_ROOT } from "./run-hx.js";

export const FIXTURE_SERVER = path.join(REPO_ROOT, "test/fixtures/mcp/fixture-server.mjs");
/** `node RECORD_STDIN LOG command args…`: a real server, with what the client sent it logged. */
export const RECORD_STDIN = path.join(REPO_ROOT, "test/fixtures/mcp/record-stdin.mjs");
export const LOOPBACK = path.join(REPO_ROOT, "test/fixtures/mcp/loopback.mjs");
export const EVERYTHING = path.join(
  REPO_ROOT,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
export const MEMORY = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
export const FILESYSTEM = path.join(
  REPO_ROOT,
  "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);

/** A `.mcp.json` stdio entry running a node script. */
export function nodeServer(script: string, args: string[] = [], env?: Record<string, string>) {
  return { command: process.execPath, args: [script, ...args], ...(env ? { env } : {}) };
}

/** A real server started through RECORD_STDIN: what hx sent it lands in `log` (read with loggedMessages). */
export function recordedServer(
  log: string,
  script: string,
  args: string[] = [],
  env?: Record<string, string>,
) {
  return nodeServer(RECORD_STDIN, [log, process.execPath, script, ...args], env);
}

/** Why a real server's tests are skipped ("" when its package is installed). */
export function missingPackage(script: string, name: string): string {
  return existsSync(script) ? "" : ` (skipped: ${name} is not installed; run npm ci)`;
}

/** Writes `{mcpServers}` to `file` and returns the file. */
export function writeMcpConfig(file: string, servers: Record<string, unknown>): string {
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

/** The JSON lines the fixture server logged with --log. */
// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages as logged.
export function loggedMessages(file: string): any[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

export interface HttpServer {
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

/** For a test file: starts server-everything over HTTP (see startEverythingHttp), stopped after each test. */
export function useEverythingHttp(): (mode: "streamableHttp" | "sse") => Promise<HttpServer> {
  const started: HttpServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });
  return async (mode) => {
    const server = await startEverythingHttp(mode);
    started.push(server);
    return server;
  };
}

/** Starts server-everything in `streamableHttp` or `sse` mode on 127.0.0.1 (a free port). */
export function startEverythingHttp(mode: "streamableHttp" | "sse"): Promise<HttpServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", LOOPBACK, EVERYTHING, mode], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server-everything ${mode} did not start: ${stderr}`));
    }, 20_000);
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
      const match = /LISTENING (\d+)/.exec(stderr);
      if (!match) return;
      clearTimeout(timer);
      const base = `http://127.0.0.1:${match[1]}`;
      resolve({
        url: mode === "sse" ? `${base}/sse` : `${base}/mcp`,
        child,
        close: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGKILL");
          }),
      });
    });
    child.on("error", reject);
  });
}

export const HTTP_FIXTURE = path.join(REPO_ROOT, "test/fixtures/mcp/http-server.mjs");
/** The "browser" of headless OAuth runs: follows the fixture's immediate redirect to hx's callback. */
export const FOLLOW_REDIRECT = `${process.execPath} ${path.join(REPO_ROOT, "test/conformance/follow-redirect.mjs")}`;

/** For a test file: starts test/fixtures/mcp/http-server.mjs with `args`, stopped after each test. */
export function useHttpFixture(): (args?: string[]) => Promise<HttpServer> {
  const started: HttpServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });
  return async (args = []) => {
    const child = spawn(process.execPath, [HTTP_FIXTURE, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    const url = await new Promise<string>((resolve, reject) => {
      let text = "";
      child.stdout?.on("data", (chunk) => {
        text += chunk;
        if (text.includes("\n")) resolve(text.trim());
      });
      child.once("exit", (code) => reject(new Error(`http-server.mjs exited (${code})`)));
    });
    const server: HttpServer = {
      url,
      child,
      close: () =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once("exit", () => done());
          child.kill("SIGKILL");
        }),
    };
    started.push(server);
    return server;
  };
}
