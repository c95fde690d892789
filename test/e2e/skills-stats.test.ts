// `hx skills stats` from real saved sessions (made by the binary against the fake server).
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { KEYS, openaiFlags, useSeedFixture } from "./skills-support.js";

const fixture = useSeedFixture();

describe("hx skills stats", () => {
  it("counts loads by the model and by the user, sessions, body tokens, input share, never-loaded skills", async () => {
    const env = { ...KEYS, HOME: tempDir("hx-home-") };
    const agent = (task: string) =>
      runHx(["agent", ...openaiFlags(fixture.server, fixture.project), task], { env });
    const usage = (input: number) => ({ input, output: 5, cached: 0, cacheWrite: 0, reasoning: 0 });
    // Session 1: the model loads sync-upstream, then answers (2 requests after nothing, 1 carrying it).
    fixture.server.reply().tool("load_skill", { name: "sync-upstream" }).usage(usage(1000));
    fixture.server.reply().text("done").usage(usage(3000));
    expect((await agent("sync upstream please")).code).toBe(0);
    // Session 2: the user invokes /sync-upstream (the body is in the first request).
    fixture.server.reply().text("ok").usage(usage(2000));
    expect((await agent("/sync-upstream now")).code).toBe(0);
    const before = await runHx(["skills", "stats", "--json", "-C", fixture.project], { env });
    expect(before.code, before.stderr).toBe(0);
    const report = JSON.parse(before.stdout);
    expect(report).toMatchObject({ sessions: 2, inputTokens: 6000, neverLoaded: ["course-blog"] });
    const [sync] = report.skills;
    expect(sync).toMatchObject({ name: "sync-upstream", loadsByModel: 1, loadsByUser: 1, sessions: 2 });
    expect(sync.bodyTokens).toBeGreaterThan(50);
    // Its body rode along in session 1's second request and session 2's only one.
    expect(sync.inputTokens).toBeGreaterThan(sync.bodyTokens);
    expect(sync.inputShare).toBeCloseTo(sync.inputTokens / 6000);
    expect(sync.lastUsed).toMatch(/^\d{4}-\d\d-\d\dT/);
    const table = await runHx(["skills", "stats", "-C", fixture.project], { env });
    expect(table.stdout).toMatch(/^2 session\(s\), 6000 input tokens\nskill +model +user +sessions/);
    expect(table.stdout).toMatch(/sync-upstream +1 +1 +2 /);
    expect(table.stdout).toContain("never loaded: course-blog");
  });

  it("a project without saved sessions has nothing to count", async () => {
    const env = { ...KEYS, HOME: tempDir("hx-home-") };
    const run = await runHx(["skills", "stats", "-C", fixture.project], { env });
    expect(run.stdout).toContain("0 session(s)");
    expect(run.stdout).toContain("No skill was loaded in these sessions.");
  });
});
