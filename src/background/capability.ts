import type { Capability, SessionBasics } from "../agent/capability.js";
import type { Tool } from "../tools/tool.js";
import { createBashKillTool } from "./bash-kill-tool.js";
import { createBashOutputTool } from "./bash-output-tool.js";
import type { BackgroundJobs } from "./jobs.js";
import { createBackgroundNotifications } from "./notifications.js";

/**
 * Background commands (`bash` with `run_in_background`): `bash_output` and `bash_kill` join the
 * tools when the first job starts (no cost to sessions that never start one), ended jobs are
 * announced before the next request, `/bashes` lists them, and hx's exit ends them (their
 * process groups are the session's), saying which were still running.
 */
export function setUpBackground(basics: SessionBasics, jobs: BackgroundJobs): Capability {
  const lateTools = new Promise<readonly Tool[]>((resolve) =>
    jobs.onFirstStart(() => resolve([createBashOutputTool(jobs), createBashKillTool(jobs)])),
  );
  return {
    name: "background",
    lateTools,
    extensions: [createBackgroundNotifications(jobs, basics.conversation)],
    commands: [
      {
        name: "bashes",
        usage: "/bashes [kill ID]",
        description: "list the background commands, or stop one",
        run(args, io) {
          const [verb, id] = args.trim().split(/\s+/);
          if (verb === "kill" && id) {
            const job = jobs.get(id);
            if (typeof job === "string") io.print(job);
            else {
              job.kill();
              io.print(`Stopping ${job.id}.`);
            }
            return;
          }
          const all = jobs.list();
          io.print(
            all.length === 0
              ? "No background commands in this session."
              : all.map((job) => `${job.id}  ${job.describe()}  ${job.command}`).join("\n"),
          );
        },
      },
    ],
    close() {
      const running = jobs.running();
      if (running.length > 0) {
        basics.log(
          `background: ended with hx: ${running.map((job) => `${job.id} (${job.command}, ${job.describe()})`).join(", ")}`,
        );
      }
      jobs.killAll();
    },
  };
}
