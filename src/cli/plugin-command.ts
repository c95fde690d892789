import path from "node:path";
import type { Command } from "commander";

/** The definitions stay light; the work is imported when a command runs (fast `hx --help`). */
const load = () => import("./plugin-actions.js");

/** Adds `hx plugin add|list|remove|approve` (docs/plugins.md). */
export function registerPluginCommand(program: Command): Command {
  const cwdOf = (command: Command): string =>
    path.resolve((command.optsWithGlobals().cwd as string | undefined) ?? process.cwd());
  const run = async (work: Promise<number>) => {
    process.exitCode = await work;
  };
  const plugin = program
    .command("plugin")
    .description("Claude Code plugins: add, list, approve and remove them (see docs/plugins.md)");
  plugin
    .command("add")
    .description("install a plugin from a folder, a git URL, owner/repo, or a marketplace (with --plugin)")
    .argument("<source>", "a folder, a git URL, owner/repo")
    .option("--plugin <name>", "the plugin to take from the source's .claude-plugin/marketplace.json")
    .option("--ref <ref>", "a branch, tag or commit of a git source")
    .option("-y, --yes", "approve its hooks and MCP servers without asking")
    .option("-C, --cwd <dir>", "resolve a relative folder from DIR")
    .action(
      async (source: string, options: { plugin?: string; ref?: string; yes?: boolean }, command: Command) => {
        const { addAction } = await load();
        await run(addAction(source, { ...options, cwd: cwdOf(command) }));
      },
    );
  plugin
    .command("list")
    .description("installed plugins: version, source, whether approved, what each brings")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const { listAction } = await load();
      await run(listAction(options));
    });
  plugin
    .command("approve")
    .description("let a plugin's hooks and MCP servers run (for its files as they are now)")
    .argument("<name>", "as hx plugin list shows it")
    .action(async (name: string) => {
      const { approveAction } = await load();
      await run(approveAction(name));
    });
  plugin
    .command("remove")
    .description("remove an installed plugin")
    .argument("<name>", "as hx plugin list shows it")
    .action(async (name: string) => {
      const { removeAction } = await load();
      await run(removeAction(name));
    });
  return plugin;
}
