import { ToolError } from "../core/tool.js";
import { builtSchema } from "../tools/built-schemas.js";
import { defineTool, type Zod } from "../tools/tool.js";
import type { BackgroundJobs } from "./jobs.js";

export const bashKillParameters = (z: Zod) => z.object({ id: z.string().describe("The job's id") });

/** `bash_kill`: ends a background command with everything it started. */
export function createBashKillTool(jobs: BackgroundJobs) {
  return defineTool({
    name: "bash_kill",
    description: "Stops a background command and everything it started.",
    parameters: bashKillParameters,
    jsonSchema: builtSchema("bash_kill"),
    effect: "none",
    async execute(args) {
      const job = jobs.get(args.id);
      if (typeof job === "string") throw new ToolError(job);
      if (!job.running) return `${job.id} had already ended: ${job.describe()}. Nothing to stop.`;
      job.kill();
      await job.waitFor(5000);
      job.announced = true;
      return `${job.id} stopped: ${job.describe()}.`;
    },
  });
}
