import { ToolError } from "../core/tool.js";
import { builtSchema } from "../tools/built-schemas.js";
import { defineTool, type Zod } from "../tools/tool.js";
import { truncate } from "../tools/truncate.js";
import type { BackgroundJobs } from "./jobs.js";

/** What one read shows at most (the newest part when more came). */
const MAX_CHARS = 20_000;
const MAX_WAIT_SECONDS = 300;

export const bashOutputParameters = (z: Zod) =>
  z.object({
    id: z.string().describe("The job's id (bg1, …)"),
    wait: z.number().min(0).max(MAX_WAIT_SECONDS).optional().describe("Seconds to wait for it to end first"),
  });

/** `bash_output`: what a background command printed since the last read, and how it stands. */
export function createBashOutputTool(jobs: BackgroundJobs) {
  return defineTool({
    name: "bash_output",
    description: "A background command's output since the last read, and whether it is still running.",
    parameters: bashOutputParameters,
    jsonSchema: builtSchema("bash_output"),
    effect: "none",
    async execute(args, ctx) {
      const job = jobs.get(args.id);
      if (typeof job === "string") throw new ToolError(job);
      if (args.wait && job.running) await job.waitFor(args.wait * 1000, ctx.signal);
      const { text, dropped } = job.takeNew();
      const shown = truncate(text, {
        maxChars: MAX_CHARS,
        keep: "tail",
        nextStep: () => "Read more often, or have the command write to a file and grep it.",
      }).text;
      if (!job.running) job.announced = true;
      const lost = dropped ? `(${dropped} older characters were dropped for space)\n` : "";
      const body = shown.trim() ? `${lost}${shown.replace(/\n$/, "")}` : `${lost}(no new output)`;
      return `${job.id} ${job.describe()}\n${body}`;
    },
  });
}
