import type { Diagnostic } from "../core/diagnostic.js";
import { compareNames } from "./discover.js";
import type { Skill } from "./types.js";

/**
 * Skills found on this machine and skills offered from elsewhere (MCP servers), one per
 * name. A skill on this machine always wins; of two remote skills of one name the first
 * offered wins. Every skill left out is named in a warning, so a remote skill never
 * replaces or hides behind another one silently.
 */
export function mergeRemoteSkills(
  local: readonly Skill[],
  remote: readonly Skill[],
): { skills: Skill[]; diagnostics: Diagnostic[] } {
  if (remote.length === 0) return { skills: [...local], diagnostics: [] };
  const byName = new Map(local.map((s) => [s.name, s]));
  const diagnostics: Diagnostic[] = [];
  for (const skill of remote) {
    const winner = byName.get(skill.name);
    if (!winner) {
      byName.set(skill.name, skill);
      continue;
    }
    const kept = winner.remote ? `${winner.file} of ${winner.source}` : `${winner.file} (${winner.source})`;
    diagnostics.push({
      level: "warning",
      code: "skill.shadowed",
      file: skill.file,
      message: `skill '${skill.name}' of ${skill.source} is shadowed by ${kept}; using that one. Rename one of them to use both.`,
    });
  }
  return { skills: [...byName.values()].sort((a, b) => compareNames(a.name, b.name)), diagnostics };
}
