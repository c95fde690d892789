import picomatch from "picomatch";
import { errorMessage } from "../core/error-message.js";
import { oneLine } from "./catalog.js";
import type { DiscoveryResult } from "./discover.js";
import type { LoadedSkills } from "./loaded-skills.js";
import type { Skill } from "./types.js";

/** One difference between what the model was told and the skills there are now. */
export interface SkillChange {
  kind: "added" | "removed" | "changed";
  name: string;
  description?: string;
  /** `changed`: the body changed too (a loaded copy is out of date). */
  bodyChanged?: boolean;
  /** `added` because a tool touched a file matching its `paths:` (the first such file). */
  touched?: string;
}

export type RescanResult = { ok: true; changes: SkillChange[] } | { ok: false; error: string };

interface Seen {
  description: string;
  body: string;
}

/**
 * The skills of one session as they are now, apart from what the model has been told. The
 * catalog in the system prompt is fixed at the start (providers cache that prefix); after a
 * rescan (hot reload) or a conditional skill's `paths:` matching, `takeAnnouncement` returns
 * the differences once, for one appended message. `load_skill` reads `all()`.
 */
export class LiveSkills {
  private skills: Skill[];
  private readonly activated = new Map<string, string>();
  /** What the model knows: the catalog, then every announcement. */
  private readonly told = new Map<string, Seen>();
  private readonly matchers = new Map<string, (file: string) => boolean>();

  constructor(
    initial: readonly Skill[],
    private readonly scan: () => DiscoveryResult,
  ) {
    this.skills = [...initial];
    for (const skill of this.visible()) this.told.set(skill.name, seen(skill));
  }

  all(): readonly Skill[] {
    return this.skills;
  }

  /** Skills the model may see now: not user-only, and conditional ones only once activated. */
  visible(): Skill[] {
    return this.skills.filter(
      (s) => !s.disableModelInvocation && (s.paths.length === 0 || this.activated.has(s.name)),
    );
  }

  /** Skills held back until a matching file is touched. */
  conditional(): Skill[] {
    return this.skills.filter(
      (s) => !s.disableModelInvocation && s.paths.length > 0 && !this.activated.has(s.name),
    );
  }

  /** Scans again; a scan that throws keeps the last good skills. */
  rescan(): RescanResult {
    let found: DiscoveryResult;
    try {
      found = this.scan();
    } catch (error) {
      return { ok: false, error: errorMessage(error) };
    }
    const before = new Map(this.skills.map((s) => [s.name, s]));
    this.skills = found.skills;
    this.matchers.clear();
    return { ok: true, changes: diff(before, new Map(found.skills.map((s) => [s.name, s]))) };
  }

  /**
   * A tool touched `file` (relative to the project root): conditional skills whose `paths:`
   * match it become visible. Returns the names activated now.
   */
  touch(file: string): string[] {
    const now: string[] = [];
    for (const skill of this.conditional()) {
      if (this.matcher(skill)(file)) {
        this.activated.set(skill.name, file);
        now.push(skill.name);
      }
    }
    return now;
  }

  /**
   * What changed since the model was last told, as changes (empty: nothing to say), and
   * marks it told. Loaded skills whose body changed are forgotten in `loaded`, so the next
   * load_skill returns the new body.
   */
  takeAnnouncement(loaded: LoadedSkills): SkillChange[] {
    const now = new Map(this.visible().map((s) => [s.name, s]));
    const changes: SkillChange[] = [];
    for (const [name, skill] of now) {
      const before = this.told.get(name);
      if (!before) {
        const touched = this.activated.get(name);
        changes.push({
          kind: "added",
          name,
          description: skill.description,
          ...(touched ? { touched } : {}),
        });
      } else if (before.description !== skill.description) {
        changes.push({
          kind: "changed",
          name,
          description: skill.description,
          bodyChanged: before.body !== skill.body && loaded.has(name),
        });
      } else if (before.body !== skill.body && loaded.has(name)) {
        changes.push({ kind: "changed", name, bodyChanged: true });
      }
    }
    for (const name of this.told.keys()) if (!now.has(name)) changes.push({ kind: "removed", name });
    for (const change of changes) {
      if (change.kind === "removed") this.told.delete(change.name);
      else this.told.set(change.name, seen(now.get(change.name)!));
      if (change.bodyChanged || change.kind === "removed") loaded.delete(change.name);
    }
    return changes.sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** The model just received this body (load_skill, `/name`): a later change is measured from it. */
  noteDelivered(skill: Skill): void {
    const told = this.told.get(skill.name);
    if (told) this.told.set(skill.name, { ...told, body: skill.body });
  }

  private matcher(skill: Skill): (file: string) => boolean {
    let match = this.matchers.get(skill.name);
    if (!match) {
      const globs = skill.paths.map((p) => p.replace(/^\.\//, ""));
      match = picomatch(globs, { dot: true });
      this.matchers.set(skill.name, match);
    }
    return match;
  }
}

/** What rescanning changed, by name (for `/reload-skills` and the watcher's log). */
function diff(before: Map<string, Skill>, after: Map<string, Skill>): SkillChange[] {
  const changes: SkillChange[] = [];
  for (const [name, skill] of after) {
    const old = before.get(name);
    if (!old) changes.push({ kind: "added", name, description: skill.description });
    else if (old.description !== skill.description || old.body !== skill.body || old.file !== skill.file)
      changes.push({
        kind: "changed",
        name,
        description: skill.description,
        bodyChanged: old.body !== skill.body,
      });
  }
  for (const name of before.keys()) if (!after.has(name)) changes.push({ kind: "removed", name });
  return changes.sort((a, b) => (a.name < b.name ? -1 : 1));
}

function seen(skill: Skill): Seen {
  return { description: skill.description, body: skill.body };
}

/**
 * The appended message for a list of changes: only the changes, one line each, so the system
 * prompt (and the provider's cached prefix) stays as it was.
 */
export function announcementText(changes: readonly SkillChange[]): string {
  const lines = changes.map((change) => {
    const description = change.description ? `: ${oneLine(change.description)}` : "";
    switch (change.kind) {
      case "added":
        return change.touched
          ? `- now available: ${change.name}${description} (it applies to ${oneLine(change.touched)})`
          : `- added: ${change.name}${description}`;
      case "removed":
        return `- removed: ${change.name} (do not load it)`;
      default:
        return `- changed: ${change.name}${description}${change.bodyChanged ? " (its instructions changed: load it again before following it)" : ""}`;
    }
  });
  return `<skills-update>\nThe skills you can load changed since the list in the system prompt:\n${lines.join("\n")}\n</skills-update>`;
}
