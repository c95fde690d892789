import path from "node:path";
import type { Command } from "commander";
import type { RunFlags } from "./run-config.js";
import type { Io, SkillsCommandDeps } from "./skills-actions.js";
import type { EvalFlags } from "./skills-eval.js";
import { neutraliseTerminalText } from "./terminal-safe.js";

export type { SkillsCommandDeps } from "./skills-actions.js";

/** The command definitions stay light; their work is imported when one runs (fast `hx --help`). */
const load = () => import("./skills-actions.js");

/** What every `hx skills` subcommand uses: where to print, the folder to look from, discovery. */
interface SkillsCli {
  deps: SkillsCommandDeps;
  io: Io;
  cwdOf(command: Command): string;
  context(
    command: Command,
    options?: { mcp?: boolean },
  ): ReturnType<Awaited<ReturnType<typeof load>>["discoverAll"]>;
}

/** Adds `hx skills list|show|validate|eval|add|update|remove|stats|new`. */
export function registerSkillsCommand(program: Command, deps: SkillsCommandDeps = {}): Command {
  const cli = skillsCli(deps);
  const skills = program
    .command("skills")
    .description("list, show, validate, measure, install and scaffold Agent Skills");
  addListCommand(skills, cli);
  addShowCommand(skills, cli);
  addValidateCommand(skills, cli);
  addEvalCommand(skills, cli);
  addAddCommand(skills, cli);
  addUpdateCommand(skills, cli);
  addRemoveCommand(skills, cli);
  addStatsCommand(skills, cli);
  addNewCommand(skills, cli);
  return skills;
}

function skillsCli(deps: SkillsCommandDeps): SkillsCli {
  const io: Io = {
    // On a terminal, text from skill files (names, descriptions, bodies, paths) cannot drive it.
    out:
      deps.out ??
      ((text) => process.stdout.write(process.stdout.isTTY ? neutraliseTerminalText(text) : text)),
    err:
      deps.err ??
      ((text) => process.stderr.write(process.stderr.isTTY ? neutraliseTerminalText(text) : text)),
    exit:
      deps.setExitCode ??
      ((code) => {
        process.exitCode = code;
      }),
  };
  const cwdOf = (command: Command): string => {
    const option = command.optsWithGlobals().cwd as string | undefined;
    return path.resolve(option ?? deps.getCwd?.() ?? process.cwd());
  };
  const context = async (command: Command, options: { mcp?: boolean } = {}) => {
    const { provider, model, contextWindow } = command.optsWithGlobals() as RunFlags;
    const { discoverAll } = await load();
    return discoverAll(cwdOf(command), { homeDir: deps.homeDir, provider, model, contextWindow, ...options });
  };
  return { deps, io, cwdOf, context };
}

function addListCommand(skills: Command, cli: SkillsCli): void {
  skills
    .command("list")
    .description("the skills hx finds here, in catalog order, with where each comes from")
    .option("--json", "print JSON")
    .option("-C, --cwd <dir>", "look from DIR instead of the current folder")
    .option("--provider <name>", "size the catalog budget for this provider's default model")
    .option("--model <name>", "size the catalog budget for this model's context window")
    .option("--context-window <tokens>", "size the catalog budget for this context window")
    .option("--mcp", "also start the configured MCP servers and list the skills they offer")
    .action(async (options: { json?: boolean; mcp?: boolean }, command: Command) => {
      const { discovery, catalog } = await cli.context(command, { mcp: options.mcp === true });
      const { listSkills, installedSkills } = await load();
      const installed = installedSkills(cli.cwdOf(command), cli.deps.homeDir, (line) =>
        cli.io.err(`hx: warning: ${line}\n`),
      );
      cli.io.exit(listSkills(discovery, catalog, options.json === true, cli.io, installed));
    });
}

function addShowCommand(skills: Command, cli: SkillsCli): void {
  skills
    .command("show")
    .description("a skill's instructions and files")
    .argument("<name>", "the skill's name")
    .option("-C, --cwd <dir>", "look from DIR instead of the current folder")
    .action(async (name: string, _options: unknown, command: Command) => {
      const { showSkill } = await load();
      cli.io.exit(showSkill((await cli.context(command)).discovery.skills, name, cli.io));
    });
}

function addValidateCommand(skills: Command, cli: SkillsCli): void {
  skills
    .command("validate")
    .description("check skills against the Agent Skills rules (default: every skill hx finds)")
    .argument("[paths...]", "skill folders, SKILL.md files, or folders of skills")
    .option("--json", "print JSON")
    .option(
      "--strict",
      "the reference validator's rules exactly: hx's extra fields and YAML flow lists/anchors fail",
    )
    .option("-C, --cwd <dir>", "look from DIR instead of the current folder")
    .action(async (paths: string[], options: { json?: boolean; strict?: boolean }, command: Command) => {
      const cwd = cli.cwdOf(command);
      const { expandValidationTargets, validateSkills } = await load();
      const targets =
        paths.length > 0
          ? expandValidationTargets(paths.map((p) => path.resolve(cwd, p)))
          : (await cli.context(command)).discovery.skills.map((s) => s.file);
      cli.io.exit(validateSkills(targets, options, cli.io));
    });
}

function addEvalCommand(skills: Command, cli: SkillsCli): void {
  skills
    .command("eval")
    .description(
      "measure how often a fresh session loads each skill for its labelled queries (evals/triggers.json)",
    )
    .argument("[names...]", "skills to evaluate (default: every skill with evals/triggers.json)")
    .option("--queries <file>", "queries from FILE instead of the skill's evals/triggers.json")
    .option("--runs <n>", "sessions per query (default 3)")
    .option("--threshold <rate>", "a query triggers when its trigger rate reaches this (default 0.5)")
    .option("-j, --jobs <n>", "sessions run at once (default 1)")
    .option(
      "--description <text>",
      "evaluate this description instead of the file's (one skill; the file is not changed)",
    )
    .option(
      "--improve",
      "ask the model for better descriptions from the train failures; keep the best by validation",
    )
    .option("--iterations <n>", "with --improve: proposals to try (default 5)")
    .option(
      "--write",
      "with --improve: put the best description into SKILL.md (the old file kept as SKILL.md.bak)",
    )
    .option("--query-timeout <seconds>", "a query's run that takes longer counts as failed (default 120)")
    .option("--split <name>", "only the train or the validation queries")
    .option("--json", "print JSON")
    .option("-C, --cwd <dir>", "work in DIR instead of the current folder")
    .option("--provider <name>", "model provider: deepseek, openai, anthropic, scripted")
    .option("--model <name>", "model name (default: the provider's default)")
    .option("--base-url <url>", "API base URL")
    .option("--thinking <on|off>", "DeepSeek thinking mode (default on)")
    .option("--script <file>", "reply script for --provider scripted")
    .option("--context-window <tokens>", "override the model's context window")
    .action(async (names: string[], _options: unknown, command: Command) => {
      const { runSkillsEval } = await import("./skills-eval.js");
      const flags = command.optsWithGlobals() as EvalFlags;
      cli.io.exit(await runSkillsEval(names, { ...flags, cwd: cli.cwdOf(command) }, cli.io));
    });
}

function addAddCommand(skills: Command, cli: SkillsCli): void {
  skills
    .command("add")
    .description(
      "install skills from a folder, a git URL or owner/repo into .agents/skills (recorded in skills-lock.json)",
    )
    .argument("<source>", "a folder, a git URL (https://, file://, git@host:...) or a GitHub owner/repo")
    .option("--skill <name...>", "only these skills of the source (default: all)")
    .option("--ref <ref>", "the branch, tag or commit to install (default: the default branch)")
    .option("--use-name", "install a skill whose folder name differs from its name under its name")
    .option("--global", "install into ~/.agents/skills (lock: ~/.agents/skills-lock.json)")
    .option("-C, --cwd <dir>", "the project to install into (default: the current folder)")
    .action(
      async (
        source: string,
        options: { skill?: string[]; ref?: string; global?: boolean; useName?: boolean },
        command: Command,
      ) => {
        const { runAdd } = await import("./skills-install.js");
        cli.io.exit(
          await runAdd(source, { ...options, cwd: cli.cwdOf(command), homeDir: cli.deps.homeDir }, cli.io),
        );
      },
    );
}

function addUpdateCommand(skills: Command, cli: SkillsCli): void {
  skills
    .command("update")
    .description("fetch installed skills again and replace those that changed upstream")
    .argument("[names...]", "installed skills to update (default: all in the lock)")
    .option(
      "--force",
      "re-install even when unchanged, replacing skills you edited since they were installed",
    )
    .option("--global", "the skills in ~/.agents/skills")
    .option("-C, --cwd <dir>", "the project (default: the current folder)")
    .action(async (names: string[], options: { force?: boolean; global?: boolean }, command: Command) => {
      const { runUpdate } = await import("./skills-install.js");
      cli.io.exit(
        await runUpdate(names, { ...options, cwd: cli.cwdOf(command), homeDir: cli.deps.homeDir }, cli.io),
      );
    });
}

function addRemoveCommand(skills: Command, cli: SkillsCli): void {
  skills
    .command("remove")
    .description("delete an installed skill and its lock entry")
    .argument("<name>", "the installed skill")
    .option("--global", "the skills in ~/.agents/skills")
    .option("-C, --cwd <dir>", "the project (default: the current folder)")
    .action(async (name: string, options: { global?: boolean }, command: Command) => {
      const { runRemove } = await import("./skills-install.js");
      cli.io.exit(
        await runRemove(name, { ...options, cwd: cli.cwdOf(command), homeDir: cli.deps.homeDir }, cli.io),
      );
    });
}

function addStatsCommand(skills: Command, cli: SkillsCli): void {
  skills
    .command("stats")
    .description("how often each skill was loaded in this project's saved sessions, and what it cost")
    .option("--json", "print JSON")
    .option("-C, --cwd <dir>", "the project (default: the current folder)")
    .action(async (options: { json?: boolean }, command: Command) => {
      const { runSkillsStats } = await import("./skills-stats.js");
      const { discovery } = await cli.context(command);
      cli.io.exit(runSkillsStats(cli.cwdOf(command), discovery.skills, options.json === true, cli.io));
    });
}

function addNewCommand(skills: Command, cli: SkillsCli): void {
  skills
    .command("new")
    .description("create .agents/skills/NAME/SKILL.md with a valid scaffold")
    .argument("<name>", "lowercase letters, digits and single hyphens, e.g. release-notes")
    .option("-C, --cwd <dir>", "create it under DIR instead of the project root")
    .action(async (name: string, _options: unknown, command: Command) => {
      const { findProjectRoot, newSkill } = await load();
      cli.io.exit(newSkill(findProjectRoot(cli.cwdOf(command)), name, cli.io));
    });
}
