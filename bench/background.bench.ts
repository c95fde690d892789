// What a background job's end costs the next request: the one `<background>` message the
// model gets instead of polling, for a command that printed a lot and for a subagent's answer.
import { BackgroundJobs, createBackgroundNotifications } from "../src/background/index.js";
import { Conversation } from "../src/core/conversation.js";
import { emptyStats } from "../src/core/stats.js";
import type { BenchRow } from "./types.js";

const LINES = 10_000;

export async function run(): Promise<BenchRow[]> {
  const command = await noticeChars((jobs) =>
    jobs.start("npm run build", async (job) => {
      for (let i = 1; i <= LINES; i++) job.write(`compiled src/module-${i}.ts in ${i % 97} ms\n`);
      return { kind: "exit", code: 0 };
    }),
  );
  const answer = "The flaky test is test/e2e/tui.test.ts: it waits for a fixed delay. ".repeat(25);
  const subagent = await noticeChars((jobs) =>
    jobs.startSubagent("find the flaky test", async () => ({ content: answer })),
  );
  return [
    {
      area: "background",
      metric: `notification in the next request: a command that printed ${LINES.toLocaleString("en")} lines`,
      value: `${command.toLocaleString("en")} chars`,
      target: "≤ 1,000 chars",
      ok: command <= 1000,
    },
    {
      area: "background",
      metric: `notification: a subagent's ${answer.length.toLocaleString("en")}-char answer (comes whole)`,
      value: `${subagent.toLocaleString("en")} chars`,
      target: `≤ answer + 200 chars`,
      ok: subagent <= answer.length + 200,
    },
  ];
}

/** Starts one job, lets it end, and measures the message the next model call gets. */
async function noticeChars(start: (jobs: BackgroundJobs) => { waitFor(ms: number): Promise<void> }) {
  const jobs = new BackgroundJobs();
  const conversation = new Conversation();
  const notifications = createBackgroundNotifications(jobs, conversation);
  await start(jobs).waitFor(5000);
  await notifications.beforeModelCall?.({
    conversation,
    turn: 1,
    stats: emptyStats(),
    emit: () => {},
    signal: new AbortController().signal,
    endRun: () => {},
  });
  const last = conversation.messages.at(-1);
  if (last?.role !== "user") throw new Error("bench: no background notification was appended");
  return last.content.length;
}
