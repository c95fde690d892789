import type { Command } from "commander";

interface TrustOptions {
  revoke?: boolean;
  list?: boolean;
}

/** `hx trust [DIR]`, `hx trust --revoke [DIR]`, `hx trust --list`: the folders whose project files apply whole. */
export function registerTrustCommand(program: Command): Command {
  return program
    .command("trust")
    .description("trust a folder: its project settings and skills apply whole (see docs/permissions.md)")
    .argument("[dir]", "the folder (default: the current one); trust is recorded for its project root")
    .option("--revoke", "stop trusting the folder")
    .option("--list", "list the trusted folders")
    .addHelpText(
      "after",
      [
        "",
        "In a folder you have not trusted, .hx/settings.json and .hx/settings.local.json apply only",
        "where they restrict (deny and ask rules, a stricter mode or sandbox); allow rules, a looser",
        "defaultMode, sandbox.mode/network, hooks and shell.env are ignored, and project skills'",
        "allowed-tools are not honoured. Trusting a folder trusts the folders below it.",
        "Recorded in ~/.hx/trusted-folders.json. For one run: hx --trust / hx agent --trust.",
      ].join("\n"),
    )
    .action(async (dir: string | undefined, options: TrustOptions) => {
      const { runTrustCommand } = await import("./trust-actions.js");
      process.exitCode = await runTrustCommand(dir, options);
    });
}
