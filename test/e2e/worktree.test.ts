// End to end: `--worktree` through the real binary — the run edits a new git worktree, not the
// main tree; a worktree with changes is kept and listed, one without is removed; bad names and
// a taken name are refused.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";
import { useHarness } from "./harness-support.js";

const h = useHarness();
const git = (...args: string[]) => execFileSync("git", args, { cwd: h.work, encoding: "utf8" });

beforeEach(() => {
  git("init", "-q");
  writeFileSync(path.join(h.work, "app.txt"), "main\n");
  git("add", "app.txt");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start");
});

describe("hx agent --worktree", () => {
  it("edits the worktree, keeps it when it changed, and hx worktree list/remove manage it", async () => {
    h.server.reply().tool("edit_file", { path: "app.txt", old_text: "main", new_text: "feature" });
    h.server.reply().text("edited");

    const run = await h.agent("change the app", ["--worktree", "feat", "--permission-mode", "acceptEdits"]);

    expect(run.code).toBe(0);
    expect(run.stderr).toContain("hx: working in worktree .hx/worktrees/feat (branch hx/feat)");
    expect(readFileSync(path.join(h.work, "app.txt"), "utf8")).toBe("main\n");
    expect(readFileSync(path.join(h.work, ".hx/worktrees/feat/app.txt"), "utf8")).toBe("feature\n");
    expect(run.stderr).toContain(
      "hx: worktree .hx/worktrees/feat kept (branch hx/feat: 1 changed file); hx worktree remove feat --force deletes it",
    );
    // The main tree does not see the worktree as untracked files.
    expect(git("status", "--porcelain")).toBe("");

    const listed = await runHx(["worktree", "list", "-C", h.work]);
    expect(listed.stdout).toBe("feat  hx/feat  1 changed file  .hx/worktrees/feat\n");
    const refused = await runHx(["worktree", "remove", "feat", "-C", h.work]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("worktree 'feat' has 1 changed file");
    const removed = await runHx(["worktree", "remove", "feat", "--force", "-C", h.work]);
    expect(removed.code).toBe(0);
    expect(existsSync(path.join(h.work, ".hx/worktrees/feat"))).toBe(false);
    expect(git("branch", "--list", "hx/feat")).toBe("");
  });

  it("removes a worktree nothing changed; refuses a taken name, a bad name and a folder outside git", async () => {
    h.server.reply().text("nothing to do");
    const clean = await h.agent("look around", ["--worktree", "look"]);
    expect(clean.code).toBe(0);
    expect(clean.stderr).toContain("hx: worktree .hx/worktrees/look had no changes and was removed");
    expect(existsSync(path.join(h.work, ".hx/worktrees/look"))).toBe(false);

    git("branch", "hx/taken");
    const taken = await h.agent("x", ["--worktree", "taken"]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain("the worktree name 'taken' is taken (branch hx/taken)");
    const bad = await h.agent("x", ["--worktree", "../up"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'../up' is not a worktree name");
    const outside = tempDir("hx-no-git-");
    const noRepo = await runHx(["agent", "x", "--worktree", "--provider", "openai", "-C", outside]);
    expect(noRepo.code).toBe(2);
    expect(noRepo.stderr).toContain("--worktree needs a git repository");
    expect(h.server.requests).toHaveLength(1);
  });
});
