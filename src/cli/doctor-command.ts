import type { Command } from "commander";

/** `hx doctor [--json] [-C DIR] [--sandbox MODE]`: what holds commands in, on this machine, in this folder. */
export function registerDoctorCommand(program: Command): Command {
  return program
    .command("doctor")
    .description("show the OS sandbox, the protected paths and the secrets kept from commands")
    .option("--json", "print JSON")
    .option("-C, --cwd <dir>", "the project folder (default: the current folder)")
    .option("--sandbox <mode>", "check this sandbox mode instead of the settings' one")
    .action(async (options: { json?: boolean; cwd?: string; sandbox?: string }) => {
      const { runDoctor } = await import("./doctor.js");
      process.exitCode = await runDoctor(options);
    });
}
