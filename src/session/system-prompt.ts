/**
 * The system prompt: who the agent is and where it works, then optional sections (the skill
 * catalog, ...). Built once per session; every request sends the same bytes so providers can
 * cache the prefix. Nothing time-dependent goes in here.
 */
export function buildSystemPrompt(workspaceRoot: string, sections: string[]): string {
  const base = [
    `You are hx, a coding agent working in ${workspaceRoot}.`,
    "Do the task with the tools rather than describing it; paths are relative to the workspace root.",
    "Keep answers short and concrete; when done, summarise what you did and found.",
  ].join("\n");
  return [base, ...sections.filter((s) => s.trim() !== "")].join("\n\n");
}
