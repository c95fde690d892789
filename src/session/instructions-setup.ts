import type { Capability, SessionBasics } from "./capability.js";
import { loadProjectInstructions } from "./project-instructions.js";

/** AGENTS.md / CLAUDE.md from the repository root down to the working folder, as a prompt section. */
export function setUpProjectInstructions(basics: SessionBasics): Capability {
  const instructions = loadProjectInstructions(basics.cwd);
  if (basics.verbose && instructions.files.length > 0) {
    basics.log(
      `instructions: ${instructions.files.join(", ")}${instructions.truncated ? " (cut to fit)" : ""}`,
    );
  }
  return { name: "instructions", promptSections: [instructions.section] };
}
