import type { Capability, SessionBasics } from "../agent/capability.js";
import { formatCount } from "../core/format-count.js";
import { loadProjectInstructions, MAX_INSTRUCTION_CHARS } from "./project-instructions.js";

/**
 * AGENTS.md / CLAUDE.md from the repository root down to the working folder, as a prompt
 * section, cut (with a note the model reads) to at most a quarter of the context window.
 */
export function setUpProjectInstructions(
  basics: SessionBasics,
  options: { contextWindow: number },
): Capability {
  // A quarter of the window, at ~4 characters per token: window tokens ≈ that many characters.
  const maxChars = Math.min(MAX_INSTRUCTION_CHARS, options.contextWindow);
  const instructions = loadProjectInstructions(basics.cwd, maxChars);
  if (instructions.truncated) {
    basics.log(
      `warning: project instructions (${instructions.files.join(", ")}) were cut to ${formatCount(maxChars)} characters to fit the context window`,
    );
  } else if (basics.verbose && instructions.files.length > 0) {
    basics.log(`instructions: ${instructions.files.join(", ")}`);
  }
  return {
    name: "instructions",
    promptSections: [instructions.section],
    diagnostics: instructions.diagnostics,
  };
}
