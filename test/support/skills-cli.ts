// The `skills` npm CLI (vercel-labs/skills), pinned, for the lock interoperability tests: installed
// once into node_modules/.cache (never a dependency of hx). Tests that need it skip, saying why,
// when the registry cannot be reached.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./run-hx.js";

export const SKILLS_CLI_VERSION = "1.5.18";
const CACHE = path.join(REPO_ROOT, "node_modules", ".cache", `hx-test-skills-${SKILLS_CLI_VERSION}`);
const BIN = path.join(CACHE, "node_modules", "skills", "bin", "cli.mjs");

/** The CLI's entry script, or the reason it is not available (installing it failed). */
export function skillsCli(): { bin: string } | { skip: string } {
  if (existsSync(BIN)) return { bin: BIN };
  mkdirSync(CACHE, { recursive: true });
  try {
    execFileSync(
      "npm",
      [
        "install",
        "--prefix",
        CACHE,
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        `skills@${SKILLS_CLI_VERSION}`,
      ],
      { stdio: "pipe", timeout: 180_000, env: { ...process.env, DISABLE_TELEMETRY: "1" } },
    );
  } catch (error) {
    const detail = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message)
      .trim()
      .split("\n")
      .slice(-1)[0];
    return { skip: `skills@${SKILLS_CLI_VERSION} could not be installed (${detail})` };
  }
  return existsSync(BIN) ? { bin: BIN } : { skip: `skills@${SKILLS_CLI_VERSION} installed no ${BIN}` };
}

/** Runs `skills ARGS` in `cwd` without a terminal, telemetry off, with `home` as HOME. */
export function runSkillsCli(
  bin: string,
  args: string[],
  cwd: string,
  home: string,
): { code: number | null; output: string } {
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, HOME: home, DISABLE_TELEMETRY: "1", DO_NOT_TRACK: "1", CI: "1", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}
