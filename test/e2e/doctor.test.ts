// End to end: `hx doctor` says what holds commands in, and how to fix a sandbox that cannot start.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backend, skipReason } from "../sandbox/sandbox-support.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

/** A PATH without bwrap, so the sandbox cannot be found (hx itself is started by its full path). */
const noBwrapPath = tempDir("hx-empty-path-");

describe("hx doctor", () => {
  it.skipIf(!backend.ok)(
    `shows the sandbox in force and the secrets kept from commands${skipReason}`,
    async () => {
      const work = tempDir();
      const run = await runHx(["doctor", "-C", work], { env: { OPENAI_API_KEY: "sk-x", GITHUB_TOKEN: "t" } });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("sandbox: workspace-write (bubblewrap), network off");
      // What a command sees inside: no capabilities, as root too.
      expect(run.stdout).toMatch(
        /inside: (root|uid \d+), no capabilities \(CapEff 0000000000000000\): the sandbox holds as (root|this user)/,
      );
      expect(run.stdout).toMatch(
        /read-only for commands: \.hx\/\*\*, \.claude\/\*\*, \.mcp\.json, \.git\/config/,
      );
      expect(run.stdout).toMatch(/secrets kept from commands and hooks: .*GITHUB_TOKEN.*OPENAI_API_KEY/);
      const json = JSON.parse(
        (await runHx(["doctor", "--json", "-C", work, "--sandbox", "read-only"])).stdout,
      );
      expect(json.sandbox).toMatchObject({ state: "active", mode: "read-only", writable: [] });
      expect(json.inside).toMatchObject({ uid: process.getuid?.(), capEff: "0000000000000000", holds: true });
    },
  );

  it("names the fix when the sandbox cannot start, and exits 1 when settings require it", async () => {
    const work = tempDir();
    const run = await runHx(["doctor", "-C", work], { env: { PATH: noBwrapPath } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "sandbox: unavailable, permission check only (bubblewrap (bwrap) is not installed)",
    );
    expect(run.stdout).toContain("fix: install bubblewrap");
    mkdirSync(path.join(work, ".hx"));
    writeFileSync(path.join(work, ".hx/settings.json"), JSON.stringify({ sandbox: { required: true } }));
    const required = await runHx(["doctor", "-C", work], { env: { PATH: noBwrapPath } });
    expect(required.code).toBe(1);
    expect(required.stdout).toContain("sandbox: unavailable, commands refused");
    expect((await runHx(["doctor", "--sandbox", "off", "-C", work])).stdout).toContain("sandbox: off");
  });
});
