// Attack cases (the shared ../shared/attacks/permission-cases.json, hx's own under
// test/fixtures/attacks/): command lines that must be decided right. Every case goes through
// `hx permissions check`; the ones safe to run also go through a real headless `hx agent` run
// whose model calls them, with fake `rm`, `sudo`, `curl`, … first on PATH and marker folders
// that must stay empty.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HX_BIN, hxEnv } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { statsLine, toolResultsOf, useHarness, writeSettings } from "./harness-support.js";

interface AttackCase {
  group: string;
  settings: unknown;
  mode: string;
  command: string;
  expect: "allow" | "deny" | "not-allow";
}

const fill = (command: string, marks: string, url: string) =>
  command.replaceAll("@MARK@", marks).replaceAll("@URL@", url);

const satisfied = (expected: AttackCase["expect"], decision: string) =>
  expected === "allow"
    ? decision === "allow"
    : expected === "deny"
      ? decision === "deny"
      : decision !== "allow";

export interface Decision {
  decision: string;
  reason?: string;
}

/**
 * `hx permissions check --json --trust` on one command, or `--batch` on several (one
 * process): the cases' settings are the user's own, as in the agent runs (`--trust`).
 */
export function check(work: string, mode: string, commands: string[], batch: boolean): Promise<Decision[]> {
  const args = ["--trust", ...(batch ? ["--batch"] : ["--", ...commands])];
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [HX_BIN, "permissions", "check", "--json", "--mode", mode, ...args],
      {
        cwd: work,
        env: hxEnv(),
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", () => {
      const lines = out.trim().split("\n");
      resolve(
        commands.map((_, i) => {
          try {
            return JSON.parse(lines[i]) as Decision;
          } catch {
            return { decision: "none", reason: out };
          }
        }),
      );
    });
    child.stdin.end(batch ? commands.map((command) => `${JSON.stringify(command)}\n`).join("") : "");
  });
}

/** Runs `work` for every item, at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** The cases by what they share (mode and settings): one workspace each. */
function bySetup(list: AttackCase[]): AttackCase[][] {
  const groups = new Map<string, AttackCase[]>();
  for (const attack of list) {
    const key = `${attack.mode} ${JSON.stringify(attack.settings)}`;
    groups.set(key, [...(groups.get(key) ?? []), attack]);
  }
  return [...groups.values()];
}

const describeResult = (attack: AttackCase, command: string, got: Decision) =>
  `${attack.group} ${attack.mode}: ${JSON.stringify(command)} expected ${attack.expect}, got ${got.decision} (${got.reason})`;

/** Commands the fake binaries stand in for: they only record that they ran. */
const FAKES = [
  "rm",
  "sudo",
  "su",
  "pkexec",
  "doas",
  "mkfs.ext4",
  "wipefs",
  "dd",
  "tee",
  "shutdown",
  "reboot",
  "systemctl",
  "halt",
  "poweroff",
  "chmod",
  "chown",
  "find",
  "curl",
  "wget",
  "busybox",
  "kill",
];

/** Not run for real even with fakes: fork bombs, and absolute paths to real binaries. */
function safeToRun(command: string): boolean {
  return !/\(\)\s*\{/.test(command) && !/\/(?:usr\/)?s?bin\/(?!sh\b)/.test(command);
}

/**
 * Defines the two suites for a cases file: every case through `hx permissions check`, and the
 * cases safe to run through a headless `hx agent` run. Skipped (with the reason in the title)
 * when the file is absent.
 */
export function attackCaseSuites(casesFile: string, label: string): void {
  const cases: AttackCase[] = existsSync(casesFile) ? JSON.parse(readFileSync(casesFile, "utf8")).cases : [];
  const title = cases.length > 0 ? "" : ` (skipped: ${casesFile} is absent)`;

  describe.skipIf(cases.length === 0)(`${label} through hx permissions check${title}`, () => {
    it(`decides all ${cases.length} cases as expected (--batch, one process per settings)`, async () => {
      const wrong: string[] = [];
      for (const group of bySetup(cases)) {
        const work = tempDir("hx-attack-");
        writeSettings(work, group[0].settings);
        const commands = group.map((attack) =>
          fill(attack.command, path.join(work, "markers"), "http://127.0.0.1:9"),
        );
        const results = await check(work, group[0].mode, commands, true);
        for (const [i, attack] of group.entries()) {
          if (!satisfied(attack.expect, results[i].decision))
            wrong.push(describeResult(attack, commands[i], results[i]));
          // A refusal says why.
          if (results[i].decision !== "allow") expect(results[i].reason, commands[i]).toMatch(/\S/);
        }
      }
      expect(wrong).toEqual([]);
    }, 120_000);

    it("decides the same one command at a time (as the before-stop hook calls it)", async () => {
      // Every tenth case, so each group is covered without a process per case.
      const sample = cases.filter((_, i) => i % 10 === 0);
      const wrong: string[] = [];
      await pool(sample, 2, async (attack) => {
        const work = tempDir("hx-attack-");
        writeSettings(work, attack.settings);
        const command = fill(attack.command, path.join(work, "markers"), "http://127.0.0.1:9");
        const [result] = await check(work, attack.mode, [command], false);
        if (!satisfied(attack.expect, result.decision)) wrong.push(describeResult(attack, command, result));
      });
      expect(wrong).toEqual([]);
    }, 120_000);
  });

  const h = useHarness();

  describe.skipIf(cases.length === 0)(`${label} through a headless hx agent run${title}`, () => {
    const groups = bySetup(cases.filter((attack) => safeToRun(attack.command)));

    it.each(groups.map((group) => [`${group[0].mode} ${JSON.stringify(group[0].settings)}`, group] as const))(
      "%s",
      async (_key, group) => {
        const fakes = path.join(h.work, "..", `${path.basename(h.work)}-fakes`);
        mkdirSync(fakes, { recursive: true });
        const log = path.join(fakes, "ran.log");
        for (const name of FAKES) {
          writeFileSync(path.join(fakes, name), `#!/bin/sh\necho "${name} $*" >> "${log}"\n`);
          chmodSync(path.join(fakes, name), 0o755);
        }
        const hits: string[] = [];
        const server = createServer((request, response) => {
          hits.push(request.url ?? "");
          response.end("hit");
        });
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        try {
          writeSettings(h.work, group[0].settings);
          const reply = h.server.reply();
          const commands = group.map((attack, i) => {
            const marks = path.join(h.work, "markers", String(i));
            mkdirSync(marks, { recursive: true });
            return fill(attack.command, marks, `${url}/case${i}`);
          });
          for (const command of commands) reply.tool("bash", { command });
          h.server.reply().text("done");

          const run = await h.agent("try these", ["--permission-mode", group[0].mode], {
            env: { PATH: `${fakes}${path.delimiter}${process.env.PATH}` },
            timeoutMs: 60_000,
          });

          expect(run.code, run.stderr).toBe(0);
          const results = toolResultsOf(h.server.requests[1]);
          expect(results).toHaveLength(group.length);
          const ran = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
          for (const [i, attack] of group.entries()) {
            const denied = results[i].startsWith("Permission denied");
            expect(denied, `${commands[i]} → ${results[i]}`).toBe(attack.expect !== "allow");
            if (attack.expect !== "allow") {
              expect(readdirSync(path.join(h.work, "markers", String(i))), commands[i]).toEqual([]);
              expect(
                hits.filter((hit) => hit.startsWith(`/case${i}/`)),
                commands[i],
              ).toEqual([]);
            }
          }
          // Only the allowed commands ran a fake binary, each exactly as written.
          const allowed = group.map((attack, i) => (attack.expect === "allow" ? commands[i] : undefined));
          for (const entry of ran) expect(allowed, `unexpected run: ${entry}`).toContain(entry);
          const blocked = group.filter((attack) => attack.expect !== "allow").length;
          expect(statsLine(run.stderr)).toContain(`blocked=${blocked} `);
        } finally {
          server.close();
        }
      },
      120_000,
    );
  });
}
