import { execFile } from "node:child_process";
import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/** Files over this size are left out of checkpoints (named in the snapshot's `skipped`). */
const MAX_CHECKPOINT_FILE_BYTES = 10 * 1024 * 1024;

/**
 * One snapshot, run with GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE set. $1 the exclude file,
 * $2 the size limit in KiB, $3 the last tree, $4 the last commit, $5 the ref, $6 the message.
 * Prints "tree\0commit\0", then each file newly left out for its size, "\0"-separated.
 */
const SNAPSHOT_SCRIPT = String.raw`set -e
ex="$1"; limit="$2"; last_tree="$3"; last="$4"; ref="$5"; msg="$6"
g() { git -c core.autocrlf=false -c gc.auto=0 -c core.excludesFile="$ex" "$@"; }
big=$(g ls-files -z --others --modified --exclude-standard \
  | xargs -0 -r sh -c 'find "$@" -maxdepth 0 -type f -size +"$0"k -print0' "$limit" | tr '\0' '\n')
if [ -n "$big" ]; then printf '%s\n' "$big" | sed 's/[][*?!#\\]/\\&/g; s|^|/|' >> "$ex"; fi
g add -A --ignore-errors . 2>/dev/null || g add -A .
tree=$(g write-tree)
if [ -n "$last" ] && [ "$tree" = "$last_tree" ]; then
  commit="$last"
else
  if [ -n "$last" ]; then commit=$(g commit-tree "$tree" -p "$last" -m "$msg"); else commit=$(g commit-tree "$tree" -m "$msg"); fi
  g update-ref "$ref" "$commit"
fi
printf '%s\0%s\0' "$tree" "$commit"
if [ -n "$big" ]; then printf '%s\n' "$big" | tr '\n' '\0'; fi`;

export interface Snapshot {
  commit: string;
  /** Files left out because they are too large. */
  skipped: string[];
}

/**
 * A git repository of hx's own beside the project (under the user's hx folder), whose work
 * tree is the project: a snapshot is `git add -A` + a commit when the tree changed, so files
 * changed by commands are covered as well as those the file tools change. The project's
 * `.gitignore` applies; its own `.git` is never touched; the user's git configuration and
 * environment are not used. Each session has its own index, so two sessions can snapshot one
 * project at once.
 */
export class ShadowGit {
  private ready: Promise<void> | undefined;
  private head: string | undefined;
  private headTree: string | undefined;

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    private readonly sessionId: string,
  ) {}

  /**
   * Records the work tree as it is now; returns the previous commit when nothing changed. One
   * shell runs every step (new or changed files over the size limit excluded, `add -A`,
   * `write-tree`, a commit only when the tree changed), so a snapshot costs one process start.
   */
  async snapshot(message: string): Promise<Snapshot> {
    await this.init();
    const limitKiB = String(MAX_CHECKPOINT_FILE_BYTES / 1024);
    const out = await this.run("sh", [
      "-c",
      SNAPSHOT_SCRIPT,
      "snapshot",
      this.excludeFile(),
      limitKiB,
      this.headTree ?? "",
      this.head ?? "",
      this.ref(),
      message,
    ]);
    const [tree = "", commit = "", ...big] = out.split("\0");
    if (!/^[0-9a-f]{40,64}$/.test(tree) || !/^[0-9a-f]{40,64}$/.test(commit)) {
      throw new Error(`the snapshot printed no commit (${out.slice(0, 200)})`);
    }
    this.head = commit;
    this.headTree = tree;
    return { commit, skipped: big.filter(Boolean) };
  }

  /** Paths (relative to the work tree) whose content differs between two snapshots. */
  async changedBetween(from: string, to: string): Promise<string[]> {
    if (from === to) return [];
    const out = await this.git(["diff", "--name-only", "--no-renames", "-z", from, to]);
    return out.split("\0").filter(Boolean);
  }

  /** Whether `file` exists in `commit`. */
  async has(commit: string, file: string): Promise<boolean> {
    const out = await this.git(["ls-tree", "-z", "--name-only", commit, "--", file]);
    return out.split("\0").includes(file);
  }

  /** Puts `files` back as they are in `commit` (a file absent there is removed). */
  async restore(commit: string, files: readonly string[]): Promise<void> {
    const present: string[] = [];
    for (const file of files) {
      if (await this.has(commit, file)) present.push(file);
      else
        await import("node:fs/promises").then((fs) => fs.rm(path.join(this.workTree, file), { force: true }));
    }
    for (let i = 0; i < present.length; i += 200) {
      await this.git(["checkout", commit, "--", ...present.slice(i, i + 200)]);
    }
  }

  private ref(): string {
    return `refs/hx/sessions/${this.sessionId}`;
  }

  private async treeOf(commit: string): Promise<string> {
    return (await this.git(["rev-parse", `${commit}^{tree}`])).trim();
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.gitDir, { recursive: true, mode: 0o700 });
      const exists = await stat(path.join(this.gitDir, "HEAD")).catch(() => undefined);
      if (!exists) {
        await this.git(["init", "--quiet", "--bare", this.gitDir], { noWorkTree: true });
        await mkdir(path.join(this.gitDir, "info"), { recursive: true });
        // hx's own state is not the project's files: rewinding never touches it.
        await writeFile(path.join(this.gitDir, "info", "exclude"), ".hx/\n");
      }
      this.head =
        (await this.git(["rev-parse", "--verify", "--quiet", this.ref()]).catch(() => "")).trim() ||
        undefined;
      // A resumed session goes on from its last snapshot.
      if (this.head) this.headTree = await this.treeOf(this.head);
    })();
    return this.ready;
  }

  private excludeFile(): string {
    return path.join(this.gitDir, `exclude-${this.sessionId}`);
  }

  private git(args: string[], options: { noWorkTree?: boolean } = {}): Promise<string> {
    const config = [
      "-c",
      "core.autocrlf=false",
      "-c",
      "gc.auto=0",
      "-c",
      `core.excludesFile=${this.excludeFile()}`,
    ];
    return this.run("git", [...config, ...args], options);
  }

  private run(program: string, args: string[], options: { noWorkTree?: boolean } = {}): Promise<string> {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      LC_ALL: "C",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_NAME: "hx",
      GIT_AUTHOR_EMAIL: "hx@localhost",
      GIT_COMMITTER_NAME: "hx",
      GIT_COMMITTER_EMAIL: "hx@localhost",
    };
    if (!options.noWorkTree) {
      env.GIT_DIR = this.gitDir;
      env.GIT_WORK_TREE = this.workTree;
      env.GIT_INDEX_FILE = path.join(this.gitDir, `index-${this.sessionId}`);
    }
    return new Promise((resolve, reject) => {
      execFile(
        program,
        args,
        { cwd: this.workTree, env, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error)
            reject(new Error(`${program} ${args[0]} failed: ${String(stderr).trim() || error.message}`));
          else resolve(stdout);
        },
      );
    });
  }
}
