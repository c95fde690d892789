/**
 * The system prompt: who the agent is and where it works, then optional sections (the skill
 * catalog, ...). Built once per session; every request sends the same bytes so providers can
 * cache the prefix. Nothing time-dependent goes in here.
 */
export function buildSystemPrompt(workspaceRoot: string, sections: string[]): string {
  const base = [
    `You are hx, a coding agent working in ${workspaceRoot}.`,
    "Use the tools to inspect and change the project and to run commands; do the task rather than describing it.",
    "Paths are relative to the workspace root. Read a file before editing it. Keep answers short and concrete.",
    "When the task is done, answer with a brief summary of what you did and found.",
  ].join("\n");
  return [base, ...sections.filter((s) => s.trim() !== "")].join("\n\n");
}
