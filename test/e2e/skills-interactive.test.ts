// Skills in the interactive session, through the real binary: `/skills` (argument hints, the
// model-only and waiting skills, the skills the catalog budget cut) in line mode and on the
// full screen, Tab completion with the argument hint, and `/name args` filling the body.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHx } from "../support/run-hx.js";
import { startScreen, TMUX_AVAILABLE } from "../support/tmux-screen.js";
import { KEYS, messagesOf, openaiFlags, useSeedFixture, writeSkill } from "./skills-support.js";

const fixture = useSeedFixture();

/** fix-issue (hint, named arguments), a model-only skill, a conditional one and 30 long ones. */
function crowd(): void {
  const root = path.join(fixture.project, ".agents", "skills");
  writeSkill(
    root,
    "fix-issue",
    'name: fix-issue\ndescription: Fixes a GitHub issue.\nargument-hint: "[issue] [branch]"\narguments: issue branch',
    "Fix issue #$issue on branch $branch.",
  );
  writeSkill(
    root,
    "house-style",
    "name: house-style\ndescription: House style.\nuser-invocable: false",
    "S.",
  );
  writeSkill(root, "ts-style", 'name: ts-style\ndescription: TS rules.\npaths: "src/**/*.ts"', "R.");
  for (let i = 0; i < 30; i++) {
    const name = `long-${String(i).padStart(2, "0")}`;
    writeSkill(root, name, `name: ${name}\ndescription: ${"word ".repeat(40).trim()}`, "b");
  }
}

/** What the catalog budget of an 8K window cut, as `hx skills list --json` reports it. */
async function cutByBudget(): Promise<{ shortened: string[]; nameOnly: string[] }> {
  const list = await runHx(["skills", "list", "--json", "--context-window", "8k"], { cwd: fixture.project });
  const skills = JSON.parse(list.stdout).skills as Array<{ name: string; catalog: string }>;
  const of = (kind: string) => skills.filter((s) => s.catalog === kind).map((s) => s.name);
  return { shortened: of("shortened"), nameOnly: of("name-only") };
}

describe("/skills and /name in the interactive session", () => {
  it("line mode: /skills shows hints, model-only and waiting skills and names what the budget cut", async () => {
    crowd();
    const cut = await cutByBudget();
    expect(cut.shortened.length + cut.nameOnly.length).toBeGreaterThan(0);
    fixture.server.reply().text("fixed");
    const run = await runHx([...openaiFlags(fixture.server, fixture.project), "--context-window", "8k"], {
      env: KEYS,
      input: "/skills\n/fix-issue 42 main\n/exit\n",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("  /fix-issue [issue] [branch]  Fixes a GitHub issue.\n");
    expect(run.stdout).not.toMatch(/^ {2}\/house-style/m);
    expect(run.stdout).toContain("Loaded by the model only: house-style\n");
    expect(run.stdout).toContain("Waiting for a matching file: ts-style (src/**/*.ts)\n");
    const names = [
      cut.shortened.length > 0 ? `descriptions shortened: ${cut.shortened.join(", ")}` : "",
      cut.nameOnly.length > 0 ? `listed by name only: ${cut.nameOnly.join(", ")}` : "",
    ].filter(Boolean);
    expect(run.stdout).toContain(`The catalog is over its budget (${names.join("; ")})`);
    // /skills sends nothing; the invocation fills the named arguments.
    expect(fixture.server.requests).toHaveLength(1);
    const user = messagesOf(fixture.server.requests[0]).filter((m) => m.role === "user");
    expect(user.at(-1)?.content).toContain("Fix issue #42 on branch main.");
  });

  it("/reload-skills rescans when watching is off (skills.watch: false): it prints the change and the model is told", async () => {
    mkdirSync(path.join(fixture.project, ".hx"), { recursive: true });
    writeFileSync(
      path.join(fixture.project, ".hx", "settings.json"),
      JSON.stringify({ skills: { watch: false } }),
    );
    const root = path.join(fixture.project, ".agents", "skills");
    let call = 0;
    fixture.server.replyWith((_request, reply) => {
      call += 1;
      // During the first turn a skill appears on disk; nobody watches, so only /reload-skills sees it.
      if (call === 1) writeSkill(root, "deploy", "name: deploy\ndescription: Deploys the site.", "Deploy.");
      reply.text(`answer ${call}`);
    });
    const run = await runHx(openaiFlags(fixture.server, fixture.project), {
      env: KEYS,
      input: "first\nsecond\n/reload-skills\n/reload-skills\nthird\n/exit\n",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("  added: deploy\n");
    expect(run.stdout).toContain("No skill changed.\n");
    const updates = (n: number) =>
      messagesOf(fixture.server.requests[n]).filter(
        (m) => m.role === "user" && String(m.content).startsWith("<skills-update>"),
      );
    expect(updates(1)).toHaveLength(0); // not watched: the second prompt knows nothing yet
    expect(updates(2).map((m) => m.content)).toEqual([
      "<skills-update>\nThe skills you can load changed since the list in the system prompt:\n- added: deploy: Deploys the site.\n</skills-update>",
    ]);
  });

  it.skipIf(!TMUX_AVAILABLE)(
    "full screen: /skills names the cut skills; the /name completion menu shows the argument hint",
    async () => {
      crowd();
      writeSkill(
        path.join(fixture.project, ".agents", "skills"),
        "house-rules",
        "name: house-rules\ndescription: The house rules.",
        "R.",
      );
      const cut = await cutByBudget();
      fixture.server.reply().text("fixed it");
      const screen = startScreen(
        [...openaiFlags(fixture.server, fixture.project), "--context-window", "8k"],
        {
          cwd: fixture.project,
          env: KEYS,
          columns: 120,
          rows: 50,
        },
      );
      try {
        // /skills answers once the session (and its skills) is open; completion needs it too.
        await screen.waitFor("/help for commands");
        screen.type("/skills");
        screen.keys("Enter");
        const shown = await screen.waitFor("The catalog is over its budget");
        expect(shown).toContain("/fix-issue [issue] [branch]  Fixes a GitHub issue.");
        expect(shown).toContain("Loaded by the model only: house-style");
        const flat = shown.replace(/\n/g, "");
        if (cut.nameOnly.length > 0) expect(flat).toContain(cut.nameOnly.at(-1));
        expect(fixture.server.requests).toHaveLength(0);
        // Typing a / at the start of the prompt opens the menu (a Tab would pick the entry).
        screen.type("/fix");
        await screen.waitFor(/fix-issue\s+\[issue\] \[branch\] — Fixes a GitHub issue\./);
        screen.keys("Escape");
        await screen.waitFor((text) => !text.includes("— Fixes a GitHub issue."));
        screen.keys("C-u");
        // A user-invocable: false skill is never offered: /house shows house-rules only.
        screen.type("/house");
        // A menu row is the name (no slash) and its description; /skills' rows start with "/".
        const menuRow = (name: string) => new RegExp(`(^|[^/\\w-])${name} {2,}\\S`, "m");
        const menu = await screen.waitFor(menuRow("house-rules"));
        expect(menu).not.toMatch(menuRow("house-style"));
        screen.keys("Escape");
        await screen.waitFor((text) => !menuRow("house-rules").test(text));
        screen.keys("C-u");
        screen.type("/fix-issue 7 dev");
        screen.keys("Enter");
        await screen.waitFor("fixed it");
        const user = messagesOf(fixture.server.requests[0]).filter((m) => m.role === "user");
        expect(user.at(-1)?.content).toContain("Fix issue #7 on branch dev.");
      } finally {
        screen.close();
      }
    },
  );
});
