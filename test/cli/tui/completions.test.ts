import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PromptCompletions } from "../../../src/cli/tui/completions.js";
import { tempDir } from "../../support/temp-dir.js";

const commands = [
  { name: "resume", description: "load a session" },
  { name: "reload-skills", description: "read the skills again" },
];

describe("Tab completion never applies a stale list", () => {
  it("a list made for '/re' applied to '/rel' completes '/rel', not the list's pick", () => {
    const completions = new PromptCompletions(tempDir("hx-complete-"), () => commands);
    const stale = completions.applyCompletion(["/rel"], 0, 4, { value: "resume", label: "resume" }, "/re");
    expect(stale.lines).toEqual(["/reload-skills "]);
    const fresh = completions.applyCompletion(["/re"], 0, 3, { value: "resume", label: "resume" }, "/re");
    expect(fresh.lines).toEqual(["/resume "]);
  });

  it("Tab before any list: a command alone in starting so is completed at once; two or none, not", () => {
    const completions = new PromptCompletions(tempDir("hx-complete-"), () => commands);
    expect(completions.completeAlone("/rel")).toBe("/reload-skills ");
    expect(completions.completeAlone("/res")).toBe("/resume ");
    expect(completions.completeAlone("/re")).toBeUndefined();
    expect(completions.completeAlone("/x")).toBeUndefined();
    expect(completions.completeAlone("say /rel")).toBeUndefined();
    expect(completions.completeAlone("/rel ")).toBeUndefined();
  });

  it("a stale @path list is recomputed; with no match nothing changes", () => {
    const root = tempDir("hx-complete-");
    mkdirSync(path.join(root, "src"));
    writeFileSync(path.join(root, "notes.md"), "x");
    writeFileSync(path.join(root, "numbers.txt"), "x");
    const completions = new PromptCompletions(root, () => commands);
    const stale = completions.applyCompletion(
      ["read @num"],
      0,
      9,
      { value: "@notes.md", label: "notes.md" },
      "@n",
    );
    expect(stale.lines).toEqual(["read @numbers.txt "]);
    const none = completions.applyCompletion(
      ["read @zzz"],
      0,
      9,
      { value: "@notes.md", label: "notes.md" },
      "@n",
    );
    expect(none.lines).toEqual(["read @zzz"]);
  });
});
