// End to end: Claude Code plugins through `hx plugin`. A published guard (kenryu42's
// safety-net, npm cc-safety-net, laid out as its plugin folder by test/support/safety-net.ts)
// installs from a folder, and once approved its hook blocks what it blocks in Claude Code; before approval, or
// after its files change, it runs nothing.

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { SAFETY_NET_VERSION, safetyNetPlugin } from "../support/safety-net.js";
import { tempDir } from "../support/temp-dir.js";
import { toolResultsOf, useHarness } from "./harness-support.js";

const h = useHarness();
const bypass = ["--permission-mode", "bypassPermissions"];

/** A git repository with uncommitted work that `git reset --hard` would lose. */
function repoWithWork(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: h.work, stdio: "ignore" });
  git("init", "-q");
  writeFileSync(path.join(h.work, "work.txt"), "committed\n");
  git("add", ".");
  git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init");
  writeFileSync(path.join(h.work, "work.txt"), "uncommitted work\n");
  return path.join(h.work, "work.txt");
}

describe("hx plugin", () => {
  it("a published plugin installs from a folder; approved, its hook blocks git reset --hard", async () => {
    const home = tempDir("hx-home-");
    const added = await runHx(["plugin", "add", safetyNetPlugin()], { env: { HOME: home } });
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(
      `Installed plugin safety-net ${SAFETY_NET_VERSION} in ${path.join(home, ".hx", "plugins", "safety-net")}`,
    );
    expect(added.stdout).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the hook's command as the plugin writes it
      'hook PreToolUse: node "${CLAUDE_PLUGIN_ROOT}/dist/bin/cc-safety-net.js" --claude-code',
    );
    // No terminal to ask: installed, not approved.
    expect(added.stdout).toContain("Not approved");

    const work = repoWithWork();
    h.server.reply().tool("bash", { command: "git reset --hard" });
    h.server.reply().text("ok");
    const before = await h.agent("reset", bypass, { env: { HOME: home } });
    expect(before.stderr).toContain("plugin safety-net is installed but not approved");
    expect(readFileSync(work, "utf8")).toBe("committed\n");

    expect((await runHx(["plugin", "approve", "safety-net"], { env: { HOME: home } })).code).toBe(0);
    writeFileSync(work, "uncommitted work\n");
    h.server.reply().tool("bash", { command: "git reset --hard" });
    h.server.reply().text("ok");
    const after = await h.agent("reset", bypass, { env: { HOME: home } });
    expect(after.code).toBe(0);
    expect(readFileSync(work, "utf8")).toBe("uncommitted work\n");
    expect(toolResultsOf(h.server.requests[3])[0]).toMatch(/git reset --hard/);

    const list = await runHx(["plugin", "list"], { env: { HOME: home } });
    expect(list.stdout).toMatch(
      new RegExp(`^safety-net ${SAFETY_NET_VERSION.replaceAll(".", "\\.")} {2}approved {2}from `, "m"),
    );
  });

  it("a plugin whose files changed after approval is not loaded", async () => {
    const home = tempDir("hx-home-");
    expect((await runHx(["plugin", "add", safetyNetPlugin(), "--yes"], { env: { HOME: home } })).code).toBe(
      0,
    );
    const installed = path.join(home, ".hx", "plugins", "safety-net");
    writeFileSync(path.join(installed, "hooks", "extra.sh"), "echo changed\n");
    h.server.reply().text("ok");
    const run = await h.agent("hi", [], { env: { HOME: home } });
    expect(run.stderr).toContain("plugin safety-net changed since you approved it");
    const list = await runHx(["plugin", "list"], { env: { HOME: home } });
    expect(list.stdout).toContain("changed since approved");
  });

  it("takes a plugin from a marketplace; its skills reach the session; remove takes it away", async () => {
    const home = tempDir("hx-home-");
    const market = tempDir("hx-market-");
    mkdirSync(path.join(market, ".claude-plugin"));
    writeFileSync(
      path.join(market, ".claude-plugin", "marketplace.json"),
      JSON.stringify({
        name: "team",
        plugins: [
          { name: "safety-net", source: "./plugins/safety-net" },
          { name: "notes", source: "./plugins/notes" },
        ],
      }),
    );
    cpSync(safetyNetPlugin(), path.join(market, "plugins", "safety-net"), { recursive: true });
    const notes = path.join(market, "plugins", "notes");
    mkdirSync(path.join(notes, ".claude-plugin"), { recursive: true });
    writeFileSync(
      path.join(notes, ".claude-plugin", "plugin.json"),
      JSON.stringify({ name: "notes", version: "1.0.0" }),
    );
    mkdirSync(path.join(notes, "skills", "release-notes"), { recursive: true });
    writeFileSync(
      path.join(notes, "skills", "release-notes", "SKILL.md"),
      "---\nname: release-notes\ndescription: Writes release notes from the git log.\n---\nRead git log, then write.\n",
    );
    mkdirSync(path.join(notes, "commands"));
    writeFileSync(
      path.join(notes, "commands", "changelog.md"),
      "---\ndescription: Drafts the changelog of a release\nargument-hint: [version]\n---\nDraft the changelog for version $ARGUMENTS from git log.\n",
    );
    const ambiguous = await runHx(["plugin", "add", market], { env: { HOME: home } });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      "is a marketplace of 2 plugins; name one with --plugin (safety-net, notes)",
    );

    const added = await runHx(["plugin", "add", market, "--plugin", "notes", "--yes"], {
      env: { HOME: home },
    });
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("skills in skills/");
    h.server.reply().text("ok");
    await h.agent("hi", [], { env: { HOME: home } });
    expect(JSON.stringify(h.server.requests[0].body)).toContain("release-notes");
    // Its command is `/changelog`, as in Claude Code: the prompt with the arguments put in.
    expect(added.stdout).toContain("commands: /changelog");
    h.server.reply().text("ok");
    await h.agent("/changelog 1.2.0", [], { env: { HOME: home } });
    expect(JSON.stringify(h.server.requests[1].body)).toContain(
      "Draft the changelog for version 1.2.0 from git log.",
    );

    expect((await runHx(["plugin", "remove", "notes"], { env: { HOME: home } })).code).toBe(0);
    expect(existsSync(path.join(home, ".hx", "plugins", "notes"))).toBe(false);
    h.server.reply().text("ok");
    await h.agent("hi", [], { env: { HOME: home } });
    expect(JSON.stringify(h.server.requests[2].body)).not.toContain("release-notes");
  });
});
