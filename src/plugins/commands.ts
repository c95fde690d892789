import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Where `hx plugin add` writes a plugin's commands as skills, inside the installed plugin. */
const COMMAND_SKILLS_DIR = ".hx-commands";

/**
 * A plugin's Claude Code commands (`commands/NAME.md`: frontmatter, then the prompt with
 * `$ARGUMENTS`) as skills `/NAME` invokes: `.hx-commands/NAME/SKILL.md` with the command's
 * frontmatter plus `name` and `disable-model-invocation: true` (a command is the user's to
 * run, as in Claude Code). Written at install, before the plugin's hash is taken, so the
 * approval covers them. Returns the names written.
 */
export function writeCommandSkills(pluginRoot: string, commandFiles: readonly string[]): string[] {
  const written: string[] = [];
  for (const file of commandFiles) {
    const name = path.basename(file, ".md").toLowerCase();
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)) continue;
    const text = readFileSync(file, "utf8").replace(/\r\n/g, "\n");
    const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
    const fields = (match ? match[1] : "")
      .split("\n")
      .filter((line) => !/^(name|disable-model-invocation)\s*:/.test(line));
    const body = (match ? match[2] : text).trim();
    if (!fields.some((line) => /^description\s*:/.test(line))) {
      const first = body.split("\n").find((line) => line.trim() !== "") ?? name;
      fields.push(`description: ${JSON.stringify(first.replace(/^#+\s*/, "").slice(0, 200))}`);
    }
    const dir = path.join(pluginRoot, COMMAND_SKILLS_DIR, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "SKILL.md"),
      `---\nname: ${name}\n${fields.join("\n")}\ndisable-model-invocation: true\n---\n${body}\n`,
    );
    written.push(name);
  }
  return written;
}
