import {
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Placeholders } from "../../src/sandbox/placeholders.js";
import { protectedMounts } from "../../src/sandbox/protected-mounts.js";
import { tempDir } from "../support/temp-dir.js";

const real = (dir: string) => realpathSync(dir);

describe("protectedMounts", () => {
  it("keeps existing protected paths read-only and names the missing ones", () => {
    const root = real(tempDir());
    mkdirSync(path.join(root, ".git/hooks"), { recursive: true });
    writeFileSync(path.join(root, ".git/config"), "");
    mkdirSync(path.join(root, ".hx"));
    const home = real(tempDir());
    const mounts = protectedMounts([root], home);
    expect(mounts.existing.sort()).toEqual(
      [".git/config", ".git/hooks", ".hx"].map((p) => path.join(root, p)).sort(),
    );
    expect(mounts.missing).toEqual([
      { path: path.join(root, ".claude"), kind: "dir" },
      { path: path.join(root, ".mcp.json"), kind: "file" },
      { path: path.join(root, ".git/config.worktree"), kind: "file" },
      { path: path.join(root, ".husky"), kind: "dir" },
      // The skill folder .agents/skills: its first missing piece.
      { path: path.join(root, ".agents"), kind: "dir" },
    ]);
    // .git stays writable (commits work) but cannot be moved away.
    expect(mounts.pinned).toEqual([path.join(root, ".git")]);
  });

  it("keeps a missing .git from being created, and a .git file (worktree) as a whole", () => {
    const root = real(tempDir());
    const none = protectedMounts([root], real(tempDir()));
    expect(none.existing).toEqual([]);
    expect(none.missing).toContainEqual({ path: path.join(root, ".git"), kind: "dir" });
    writeFileSync(path.join(root, ".git"), "gitdir: /elsewhere\n");
    expect(protectedMounts([root], real(tempDir())).existing).toEqual([path.join(root, ".git")]);
  });

  it("a writable git folder (a worktree's shared .git) keeps its config and hooks read-only", () => {
    const gitDir = real(tempDir());
    writeFileSync(path.join(gitDir, "HEAD"), "ref: refs/heads/main\n");
    mkdirSync(path.join(gitDir, "objects"));
    writeFileSync(path.join(gitDir, "config"), "");
    const mounts = protectedMounts([gitDir], real(tempDir()));
    expect(mounts.existing).toContain(path.join(gitDir, "config"));
    expect(mounts.missing).toContainEqual({ path: path.join(gitDir, "hooks"), kind: "dir" });
  });

  it("only the first missing piece gets a stand-in (.git/hooks when .git exists without it)", () => {
    const root = real(tempDir());
    mkdirSync(path.join(root, ".git"));
    const missing = protectedMounts([root], real(tempDir())).missing.map((m) => path.relative(root, m.path));
    expect(missing).toContain(".git/hooks");
    expect(missing).toContain(".git/config");
  });

  it("protects the target of a protected path that is a symlink inside the workspace", () => {
    const root = real(tempDir());
    mkdirSync(path.join(root, "decoy"));
    symlinkSync("decoy", path.join(root, ".hx"));
    expect(protectedMounts([root], real(tempDir())).existing).toContain(path.join(root, "decoy"));
  });

  it("adds the shell start-up files and ~/.hx when the home folder is writable", () => {
    const home = real(tempDir());
    writeFileSync(path.join(home, ".bashrc"), "");
    const mounts = protectedMounts([home], home);
    expect(mounts.existing).toContain(path.join(home, ".bashrc"));
    expect(mounts.missing.map((m) => m.path)).toContain(path.join(home, ".zshrc"));
    expect(mounts.missing.map((m) => m.path)).toContain(path.join(home, ".hx"));
    // Not writable: nothing to do, the read-only root already holds it.
    expect(protectedMounts([real(tempDir())], home).existing).toEqual([]);
  });
});

describe("Placeholders", () => {
  it("makes empty stand-ins and removes them when released", () => {
    const root = real(tempDir());
    const placeholders = new Placeholders(tempDir("hx-registry-"));
    const held = placeholders.acquire([
      { path: path.join(root, ".claude"), kind: "dir" },
      { path: path.join(root, ".mcp.json"), kind: "file" },
    ]);
    expect(held.paths).toHaveLength(2);
    expect(existsSync(path.join(root, ".claude"))).toBe(true);
    expect(existsSync(path.join(root, ".mcp.json"))).toBe(true);
    held.release();
    expect(existsSync(path.join(root, ".claude"))).toBe(false);
    expect(existsSync(path.join(root, ".mcp.json"))).toBe(false);
  });

  it("keeps a stand-in while another command still uses it, and one that something was written into", () => {
    const root = real(tempDir());
    const placeholders = new Placeholders(tempDir("hx-registry-"));
    const entry = { path: path.join(root, ".hx"), kind: "dir" as const };
    const first = placeholders.acquire([entry]);
    const second = placeholders.acquire([entry]);
    first.release();
    expect(existsSync(entry.path)).toBe(true);
    // hx itself (outside the sandbox) saved a tool result meanwhile.
    mkdirSync(path.join(entry.path, "tool-results"));
    second.release();
    expect(existsSync(path.join(entry.path, "tool-results"))).toBe(true);
  });

  it("holds a stand-in once per process however many of its launches use it", () => {
    const root = real(tempDir());
    const registry = tempDir("hx-registry-");
    const placeholders = new Placeholders(registry);
    const entry = { path: path.join(root, ".mcp.json"), kind: "file" as const };
    const launches = [
      placeholders.acquire([entry]),
      placeholders.acquire([entry]),
      placeholders.acquire([entry]),
    ];
    const markers = () => {
      const dir = path.join(registry, readdirSync(registry)[0]);
      return readdirSync(dir).filter((name) => /^\d+-\d+$/.test(name));
    };
    expect(markers()).toHaveLength(1);
    launches[0].release();
    launches[0].release(); // twice is once
    launches[1].release();
    expect(existsSync(entry.path)).toBe(true);
    expect(markers()).toHaveLength(1);
    // Another hx process sees it as a stand-in, not as a real file.
    expect(new Placeholders(registry).isStandIn(entry.path)).toBe(true);
    launches[2].release();
    expect(existsSync(entry.path)).toBe(false);
    // The folder stays for the next call (only the file naming the path is left in it) …
    expect(readdirSync(path.join(registry, readdirSync(registry)[0]))).toEqual(["path"]);
    expect(new Placeholders(registry).isStandIn(entry.path)).toBe(false);
    // … until a session's sweep finds it unused.
    new Placeholders(registry).sweepStale();
    expect(readdirSync(registry)).toEqual([]);
  });

  it("a sweep leaves the folder of a stand-in a live process holds", () => {
    const root = real(tempDir());
    const registry = tempDir("hx-registry-");
    const entry = { path: path.join(root, ".claude"), kind: "dir" as const };
    const held = new Placeholders(registry).acquire([entry]);
    new Placeholders(registry).sweepStale();
    expect(existsSync(entry.path)).toBe(true);
    expect(readdirSync(registry)).toHaveLength(1);
    held.release();
    expect(existsSync(entry.path)).toBe(false);
  });

  it("makes a held stand-in again when it was removed by hand", () => {
    const root = real(tempDir());
    const placeholders = new Placeholders(tempDir("hx-registry-"));
    const entry = { path: path.join(root, ".claude"), kind: "dir" as const };
    const first = placeholders.acquire([entry]);
    rmSync(entry.path, { recursive: true });
    const second = placeholders.acquire([entry]);
    expect(second.paths).toEqual([entry.path]);
    expect(existsSync(entry.path)).toBe(true);
    first.release();
    second.release();
    expect(existsSync(entry.path)).toBe(false);
  });

  it("leaves alone a path that existed before", () => {
    const root = real(tempDir());
    const placeholders = new Placeholders(tempDir("hx-registry-"));
    writeFileSync(path.join(root, ".mcp.json"), "");
    placeholders.acquire([{ path: path.join(root, ".mcp.json"), kind: "file" }]).release();
    expect(existsSync(path.join(root, ".mcp.json"))).toBe(true);
  });

  it("removes stand-ins of processes that are gone (hx killed with -9)", () => {
    const root = real(tempDir());
    const registry = tempDir("hx-registry-");
    const entry = { path: path.join(root, ".claude"), kind: "dir" as const };
    new Placeholders(registry).acquire([entry]);
    // Pretend the marker belongs to a dead process.
    const dir = path.join(registry, readdirSync(registry)[0]);
    const marker = readdirSync(dir).find((name) => /^\d+-\d+$/.test(name))!;
    renameSync(path.join(dir, marker), path.join(dir, "999999999-1"));
    new Placeholders(registry).sweepStale();
    expect(existsSync(entry.path)).toBe(false);
  });
});
