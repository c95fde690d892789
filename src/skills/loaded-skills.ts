/** Where a skill's folder is made readable: the session's `Workspace`. */
export interface ReadGrants {
  /** Makes `dir` readable; the function returned takes that back. */
  allowRead(dir: string): () => void;
}

/** A skill as the loaded state needs it: its name and, on this machine, its folder. */
export interface LoadedSkillRef {
  name: string;
  /** Absent for a remote skill (no folder here to read). */
  dir?: string;
}

/**
 * The one owner of what the conversation has loaded: which skills' bodies are whole in it (a
 * later load_skill answers with a short note) and which skill folders the tools may read
 * because of them. One per conversation (the session's, never module state). When the history
 * is replaced (resume, compaction, /clear) `reset` is given the skills its messages still
 * carry (their `meta`): the rest are no longer loaded and their folders no longer readable.
 */
export class LoadedSkills {
  private readonly loaded = new Set<string>();
  /** Folder → the grant's revoke, one grant per folder. */
  private readonly granted = new Map<string, () => void>();

  /** `reads`: where folders are granted; without it only the names are kept (tests, subagents). */
  constructor(private readonly reads?: ReadGrants) {}

  has(name: string): boolean {
    return this.loaded.has(name);
  }

  /** In load order. */
  names(): string[] {
    return [...this.loaded];
  }

  /** The skill's body is now in the conversation; its folder becomes readable. */
  add(skill: LoadedSkillRef): void {
    this.loaded.add(skill.name);
    if (skill.dir !== undefined) this.grantRead(skill.dir);
  }

  /**
   * Makes a skill's folder readable without loading it here (a `context: fork` skill whose
   * subagent reads it); taken back at the next `reset` unless a loaded skill needs it.
   */
  grantRead(dir: string): void {
    if (!this.reads || this.granted.has(dir)) return;
    this.granted.set(dir, this.reads.allowRead(dir));
  }

  /**
   * Forgets one skill (its body changed on disk: the next load_skill returns the new one). Its
   * folder stays readable: the old body is still in the history.
   */
  delete(name: string): void {
    this.loaded.delete(name);
  }

  /** The history was replaced: `present` are the skills its messages carry whole, in order. */
  reset(present: readonly LoadedSkillRef[]): void {
    this.loaded.clear();
    const keep = new Set(present.flatMap((skill) => (skill.dir === undefined ? [] : [skill.dir])));
    for (const [dir, revoke] of this.granted) {
      if (keep.has(dir)) continue;
      revoke();
      this.granted.delete(dir);
    }
    for (const skill of present) this.add(skill);
  }
}
