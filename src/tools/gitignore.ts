import { readFileSync } from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

/**
 * Answers "does git ignore this file?" from the .gitignore files between `root` and the file,
 * each read once. Deeper files override shallower ones, as in git. Not covered: global
 * excludes and .git/info/exclude.
 */
export class GitignoreFilter {
  private readonly byDir = new Map<string, Ignore | undefined>();

  constructor(private readonly root: string) {}

  /** `file` is absolute and below `root`; files outside `root` are never ignored. */
  ignores(file: string): boolean {
    const rel = path.relative(this.root, file);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return false;
    const parts = rel.split(path.sep);
    let ignored = false;
    for (let depth = 0; depth < parts.length; depth++) {
      const rules = this.rulesIn(path.join(this.root, ...parts.slice(0, depth)));
      if (!rules) continue;
      const verdict = rules.test(parts.slice(depth).join("/"));
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }

  private rulesIn(dir: string): Ignore | undefined {
    if (this.byDir.has(dir)) return this.byDir.get(dir);
    let rules: Ignore | undefined;
    try {
      rules = ignore().add(readFileSync(path.join(dir, ".gitignore"), "utf8"));
    } catch {
      rules = undefined;
    }
    this.byDir.set(dir, rules);
    return rules;
  }
}
