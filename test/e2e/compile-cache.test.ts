// bin/hx.cjs compiles the bundle with V8's code cache: the first run of a kind of command
// writes it, later runs take it as it is, and whatever goes wrong with it (a damaged file, a
// folder that cannot be written, V8 flags changed by the run) never stops hx. Each test runs a
// copy of bin/ and dist/ in its own folder, so the project's own cache is left alone.
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeModelServer } from "../support/fake-model-server.js";
import { hxEnv, REPO_ROOT } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { waitFor } from "../support/wire.js";

/** bin/, dist/ and package.json copied, node_modules linked: an installed hx of its own. */
function installedCopy(): string {
  const root = tempDir("hx-install-");
  mkdirSync(path.join(root, "bin"));
  mkdirSync(path.join(root, "dist"));
  copyFileSync(path.join(REPO_ROOT, "bin", "hx.cjs"), path.join(root, "bin", "hx.cjs"));
  for (const file of ["hx.cjs", "hx.cjs.map"])
    copyFileSync(path.join(REPO_ROOT, "dist", file), path.join(root, "dist", file));
  copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(root, "package.json"));
  symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(root, "node_modules"));
  return root;
}

const cacheDir = (root: string) => path.join(root, "dist", ".cache");
const caches = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".bin")) : []);

describe("the code cache", () => {
  it("is written by the first run of hx agent, taken as it is by the next, and rewritten when damaged", async () => {
    const root = installedCopy();
    const server = await startFakeModelServer();
    server.replyWith((_request, reply) => reply.text("cached"));
    const work = tempDir("hx-cache-work-");
    const env = hxEnv({ OPENAI_API_KEY: "sk-test" });
    const agent = () =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const args = ["agent", "hi", "--provider", "openai", "--base-url", `${server.url}/v1`, "-C", work];
        // Asynchronous: the fake server answering it lives in this process.
        const child = spawn(process.execPath, [path.join(root, "bin", "hx.cjs"), ...args], { env });
        let stdout = "";
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk;
        });
        child.on("close", (code) => resolve({ code, stdout }));
      });
    try {
      expect(caches(cacheDir(root))).toEqual([]);
      expect(await agent()).toEqual({ code: 0, stdout: "cached\n" });
      const [file] = caches(cacheDir(root));
      expect(file).toMatch(new RegExp(`^agent-${process.version}-${process.arch}-[0-9a-f]{8}\\.bin$`));
      const written = statSync(path.join(cacheDir(root), file));
      expect(written.size).toBeGreaterThan(100_000);

      // Accepted: the second run answers the same and leaves the file as it was.
      expect(await agent()).toEqual({ code: 0, stdout: "cached\n" });
      const again = statSync(path.join(cacheDir(root), file));
      expect([again.ino, again.mtimeMs]).toEqual([written.ino, written.mtimeMs]);

      // Damaged: V8 refuses it, hx runs from source and writes a good one.
      writeFileSync(path.join(cacheDir(root), file), Buffer.alloc(4096, 7));
      expect(await agent()).toEqual({ code: 0, stdout: "cached\n" });
      const rewritten = readFileSync(path.join(cacheDir(root), file));
      expect(rewritten.length).toBeGreaterThan(100_000);
      expect(rewritten.subarray(0, 4096).equals(Buffer.alloc(4096, 7))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it("goes to ~/.hx/cache (which the sandbox keeps read-only) when dist/ takes none, and is skipped when turned off", () => {
    const root = installedCopy();
    writeFileSync(cacheDir(root), "a file where the cache folder would be\n");
    const home = tempDir("hx-home-");
    const hx = (args: string[], extra: Record<string, string> = {}) =>
      spawnSync(process.execPath, [path.join(root, "bin", "hx.cjs"), ...args], {
        env: hxEnv({ HOME: home, ...extra }),
        encoding: "utf8",
      });
    const off = hx(["--help"], { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(off.status).toBe(0);
    expect(caches(path.join(home, ".hx", "cache"))).toEqual([]);
    const help = hx(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(off.stdout);
    const size = statSync(path.join(root, "dist", "hx.cjs")).size;
    expect(caches(path.join(home, ".hx", "cache"))).toEqual([
      expect.stringMatching(
        new RegExp(`^${size}-\\d+-command-${process.version}-${process.arch}-[0-9a-f]{8}\\.bin$`),
      ),
    ]);
  });

  it("is written 3 s into a long run that then ends by a signal (hx acp killed by its editor)", async () => {
    const root = installedCopy();
    const child = spawn(process.execPath, [path.join(root, "bin", "hx.cjs"), "acp"], {
      env: hxEnv(),
      stdio: ["pipe", "ignore", "ignore"],
    });
    try {
      await waitFor(() => caches(cacheDir(root)).length > 0, "the acp cache", 15_000);
      expect(caches(cacheDir(root))).toEqual([
        expect.stringMatching(new RegExp(`^acp-${process.version}-${process.arch}-[0-9a-f]{8}\\.bin$`)),
      ]);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("is written before hx changes V8's flags (loading the bash parser does), and taken by the next run", () => {
    const root = installedCopy();
    const home = tempDir("hx-home-");
    const check = () =>
      spawnSync(
        process.execPath,
        [path.join(root, "bin", "hx.cjs"), "permissions", "check", "--", "git status"],
        {
          env: hxEnv({ HOME: home }),
          encoding: "utf8",
          cwd: tempDir("hx-cache-cwd-"),
        },
      );
    const first = check();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain("allow");
    const [file] = caches(cacheDir(root));
    expect(file).toMatch(/^command-/);
    const written = statSync(path.join(cacheDir(root), file));
    // Made under the flags the run started with: V8 takes it, so it is not written again.
    expect(check().stdout).toBe(first.stdout);
    const again = statSync(path.join(cacheDir(root), file));
    expect([again.ino, again.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  });

  it("knows every subcommand hx --help lists", () => {
    const help = spawnSync(process.execPath, [path.join(REPO_ROOT, "bin", "hx.cjs"), "--help"], {
      env: hxEnv(),
      encoding: "utf8",
    }).stdout;
    const section = help.slice(help.indexOf("Commands:"), help.indexOf("Examples:"));
    const listed = [...section.matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1]);
    const launcher = readFileSync(path.join(REPO_ROOT, "bin", "hx.cjs"), "utf8");
    const known = /const SUBCOMMANDS = \[([^\]]*)\]/.exec(launcher)?.[1] ?? "";
    expect(listed.length).toBeGreaterThan(10);
    expect([...known.matchAll(/"([a-z-]+)"/g)].map((m) => m[1]).sort()).toEqual([...listed].sort());
  });
});
