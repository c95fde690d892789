import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadProjectInstructions } from "../../src/instructions/project-instructions.js";
import { tempDir } from "../support/temp-dir.js";

function project(): string {
  const root = tempDir("hx-instr-");
  mkdirSync(path.join(root, ".git"));
  mkdirSync(path.join(root, "pkg", "sub"), { recursive: true });
  return root;
}

describe("project instructions (AGENTS.md / CLAUDE.md)", () => {
  it("collects one file per folder from the repository root down to the working folder", () => {
    const root = project();
    writeFileSync(path.join(root, "AGENTS.md"), "Use pnpm.\n");
    writeFileSync(path.join(root, "CLAUDE.md"), "ignored: AGENTS.md wins in this folder\n");
    writeFileSync(path.join(root, "pkg", "CLAUDE.md"), "Tests live in test/.\n");
    const found = loadProjectInstructions(path.join(root, "pkg", "sub"));
    expect(found.files).toEqual([path.join(root, "AGENTS.md"), path.join(root, "pkg", "CLAUDE.md")]);
    expect(found.section).toBe(
      "# Project instructions\n## ../../AGENTS.md\nUse pnpm.\n\n## ../CLAUDE.md\nTests live in test/.",
    );
    expect(found.section).not.toContain("ignored");
  });

  it("is empty without instruction files, and stops at the repository root", () => {
    const outer = tempDir("hx-instr-outer-");
    writeFileSync(path.join(outer, "AGENTS.md"), "outside the repo\n");
    const root = path.join(outer, "repo");
    mkdirSync(path.join(root, ".git"), { recursive: true });
    expect(loadProjectInstructions(root)).toEqual({
      section: "",
      files: [],
      truncated: false,
      diagnostics: [],
    });
  });

  it("caps what goes in the system prompt and says where to read the rest", () => {
    const root = project();
    writeFileSync(path.join(root, "AGENTS.md"), "x".repeat(500));
    const found = loadProjectInstructions(root, 100);
    expect(found.truncated).toBe(true);
    expect(found.section.length).toBeLessThan(250);
    expect(found.section).toMatch(/cut at 100 characters; read the files for the rest/);
  });
});
