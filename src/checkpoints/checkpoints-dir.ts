import path from "node:path";
import { projectKey } from "../transcript/index.js";

/** Where a project's checkpoints live: `<hx folder>/checkpoints/<project key>/` (repo + logs). */
export function checkpointsDir(userHxDir: string, projectRoot: string): string {
  return path.join(userHxDir, "checkpoints", projectKey(projectRoot));
}
