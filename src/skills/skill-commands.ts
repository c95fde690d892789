import type { SlashCommand } from "../agent/capability.js";
import { budgetNote, type SkillCatalog } from "./catalog.js";
import type { LiveSkills, RescanResult } from "./live-skills.js";

/** `/skills`: the skills the user may invoke, those only the model loads, and those waiting for a file. */
export function skillsListCommand(live: LiveSkills, catalog: SkillCatalog): SlashCommand {
  return {
    name: "skills",
    usage: "/skills",
    description: "the skills the model can load (type /<name> to invoke one)",
    run(_args, io) {
      const all = live.all();
      if (all.length === 0) {
        io.print("No skills found. Add one with: hx skills new NAME");
        return;
      }
      for (const skill of all) {
        if (!skill.userInvocable) continue;
        const hint = skill.argumentHint ? ` ${skill.argumentHint}` : "";
        io.print(`  /${skill.name}${hint}  ${firstLine(skill.description)}`);
      }
      const modelOnly = all.filter((s) => !s.userInvocable).map((s) => s.name);
      if (modelOnly.length > 0) io.print(`Loaded by the model only: ${modelOnly.join(", ")}`);
      const waiting = live.conditional().map((s) => `${s.name} (${s.paths.join(", ")})`);
      if (waiting.length > 0) io.print(`Waiting for a matching file: ${waiting.join("; ")}`);
      const budget = budgetNote(catalog);
      if (budget) io.print(budget);
    },
  };
}

/** `/reload-skills`: scans the skill folders again (`reload`); the model is told at its next request. */
export function reloadSkillsCommand(reload: (why: string) => RescanResult): SlashCommand {
  return {
    name: "reload-skills",
    usage: "/reload-skills",
    description: "scan the skill folders again; the model is told what changed",
    run(_args, io) {
      const result = reload("reloaded");
      if (!result.ok) io.print(`Rescanning failed (${result.error}); the skills found before stay.`);
      else if (result.changes.length === 0) io.print("No skill changed.");
      else for (const change of result.changes) io.print(`  ${change.kind}: ${change.name}`);
    },
  };
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
