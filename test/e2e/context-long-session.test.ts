// The "done when": a 200-turn task runs through the built binary within a 32k window
// without a provider error, keeps the skill it loaded, fires PreCompact, and leaves the full
// history on disk. Every assertion is read from the requests the fake server recorded.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { estimateTokens } from "../../src/context/tokens.js";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import {
  BYPASS,
  isSessionRequest,
  messagesOf,
  OPENAI_KEY,
  openaiArgs,
  pairingProblems,
} from "../support/wire.js";

const WINDOW = 32_000;
const WORK_TURNS = 200;
const SKILL = "deploy-checklist";
const SKILL_MARKER = "DEPLOY-CHECKLIST-RULE-7";

let server: FakeModelServer;
let work: string;
let home: string;

beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-long-e2e-");
  home = tempDir("hx-home-");
});
afterEach(async () => {
  await server.close();
});

function writeProject(hookLog: string): void {
  const skillDir = path.join(work, ".agents/skills", SKILL);
  mkdirSync(skillDir, { recursive: true });
  const rules = Array.from(
    { length: 60 },
    (_, i) => `${i + 1}. Before shipping, check item ${i + 1} and record the result in the log.`,
  );
  writeFileSync(
    path.join(skillDir, "SKILL.md"),
    `---\nname: ${SKILL}\ndescription: How to ship a release here; use before any deploy step.\n---\n# Deploy checklist\n${SKILL_MARKER}: never skip the smoke test.\n${rules.join("\n")}\n`,
  );
  mkdirSync(path.join(work, ".hx"), { recursive: true });
  writeFileSync(
    path.join(work, ".hx/settings.json"),
    JSON.stringify({
      hooks: { PreCompact: [{ hooks: [{ type: "command", command: `echo "$(cat)" >> ${hookLog}` }] }] },
    }),
  );
}

it("runs 200 tool turns in a 32k window: requests fit, pairs intact, system prompt fixed, skill kept, PreCompact fired, transcript whole", async () => {
  const hookLog = path.join(work, "precompact.log");
  writeProject(hookLog);
  let sessionTurns = 0;
  let summaries = 0;
  server.replyWith((request, reply) => {
    // Report input as a provider would: the whole body, counted a little higher than hx does.
    reply.usage({ input: estimateTokens(JSON.stringify(request.body)), output: 30 });
    if (!isSessionRequest(request)) {
      summaries += 1;
      reply.text(`## Goal\nship the release\n## Done\nsummary ${summaries}: steps so far ran cleanly`);
      return;
    }
    sessionTurns += 1;
    if (sessionTurns === 1) reply.tool("load_skill", { name: SKILL });
    else if (sessionTurns <= WORK_TURNS + 1) {
      // 3–6 KB of output per step.
      const rows = 60 + (sessionTurns % 4) * 20;
      reply.tool("bash", {
        command: `seq -f 'step ${sessionTurns} row %g: checked the module and recorded the result' 1 ${rows}`,
      });
    } else reply.text("all done");
  });

  const run = await runHx(
    [
      "agent",
      "ship the release",
      ...openaiArgs(server, work),
      ...BYPASS,
      "--trust", // the project's PreCompact hook runs in a trusted folder only
      "--context-window",
      "32k",
      "--max-turns",
      "250",
    ],
    { env: { ...OPENAI_KEY, HOME: home }, timeoutMs: 120_000 },
  );
  expect(run.stderr).not.toMatch(/hx: /);
  expect(run.stdout).toBe("all done\n");
  expect(run.code).toBe(0);

  const session = server.requests.filter(isSessionRequest);
  expect(session).toHaveLength(WORK_TURNS + 2);
  expect(summaries).toBeGreaterThan(0);
  expect(run.stderr).toMatch(/context compacted \(auto\)/);

  const system = messagesOf(session[0])[0];
  let largest = 0;
  session.forEach((request, i) => {
    const messages = messagesOf(request);
    largest = Math.max(largest, estimateTokens(JSON.stringify(request.body)));
    expect(messages[0], `request ${i + 1}: system prompt`).toEqual(system);
    expect(pairingProblems(messages), `request ${i + 1}`).toEqual([]);
    if (i >= 1) expect(JSON.stringify(messages), `request ${i + 1}: skill body`).toContain(SKILL_MARKER);
  });
  // The whole body as sent (JSON escapes and tool schemas included) fits the window.
  expect(largest).toBeLessThanOrEqual(WINDOW);
  expect(largest).toBeGreaterThan(WINDOW * 0.5);
  if (process.env.HX_TEST_REPORT) console.log({ largest, summaries, requests: server.requests.length });
  const hookLines = readFileSync(hookLog, "utf8").trim().split("\n");
  expect(hookLines.length).toBe(summaries);
  expect(JSON.parse(hookLines[0])).toMatchObject({ hook_event_name: "PreCompact", trigger: "auto" });

  // Every step's full output is on disk, although the requests no longer carry most of them.
  const dir = path.join(home, ".hx/sessions");
  const [project] = readdirSync(dir);
  // hx's own transcript (the Claude-shaped one for hooks is in claude/ beside it).
  const [file] = readdirSync(path.join(dir, project)).filter((name) => name.endsWith(".jsonl"));
  const events = readFileSync(path.join(dir, project, file), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const results = events.filter((e) => e.type === "message" && e.message.role === "tool");
  expect(results).toHaveLength(WORK_TURNS + 1);
  for (let step = 2; step <= WORK_TURNS + 1; step++) {
    const rows = 60 + (step % 4) * 20;
    expect(results[step - 1].message.content).toContain(`step ${step} row ${rows}: checked`);
  }
  expect(events.filter((e) => e.type === "compaction")).toHaveLength(summaries);
  expect(events.filter((e) => e.type === "usage")).toHaveLength(WORK_TURNS + 2);
}, 120_000);
