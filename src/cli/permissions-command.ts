import type { Command } from "commander";
import type { DecisionBand, PermissionCheck, RuleTarget } from "../permissions/index.js";
import type { Tool } from "../tools/tool.js";
import type { Workspace } from "../tools/workspace.js";

interface CheckOptions {
  json?: boolean;
  mode?: string;
  cwd?: string;
  batch?: boolean;
  trust?: boolean;
}

/**
 * `hx permissions check [--json] [--mode M] [-C DIR] -- "<command>"` and
 * `hx permissions check TOOL SUBJECT` (`write_file src/a.ts`, `load_skill deploy`): prints the
 * decision a run would make (allow, ask or deny) with the rule or reason, running nothing.
 * It reads the same settings as `hx agent` in that folder. `--batch` checks one command per
 * stdin line (a JSON string) and prints one JSON object per line.
 */
export function registerPermissionsCommand(program: Command): Command {
  const permissions = program.command("permissions").description("inspect permission decisions");
  permissions
    .command("check")
    .description("print the decision for a command (or TOOL SUBJECT) without running it")
    .argument(
      "[call...]",
      "the command line (quote it, after --), or a tool and its subject: write_file src/a.ts",
    )
    .option("--json", "print JSON: {decision, rule, reason, commands, ...}")
    .option("--mode <mode>", "permission mode to decide in (default: from settings, else default)")
    .option("-C, --cwd <dir>", "the workspace (default: the current folder)")
    .option("--batch", "read commands from stdin, one JSON string per line; print one JSON result per line")
    .option("--trust", "decide as a run with --trust would: the folder's project settings apply whole")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        '  hx permissions check -- "git status && rm -rf build"',
        "  hx permissions check --json --mode acceptEdits write_file .hx/settings.json",
        "  hx permissions check load_skill deploy",
        "A command starting with a tool's name (grep x .) must be one quoted argument.",
      ].join("\n"),
    )
    .action(async (call: string[], options: CheckOptions) => {
      process.exitCode = await runPermissionsCheck(call, options);
    });
  return permissions;
}

/** The tool a command line is checked as (the one that runs it). */
const COMMAND_TOOL = "bash";

async function runPermissionsCheck(call: string[], options: CheckOptions): Promise<number> {
  const [
    { realpathSync },
    path,
    { loadTrustedSettings },
    permissionsModule,
    { Workspace },
    { UsageError },
    prepare,
  ] = await Promise.all([
    import("node:fs"),
    import("node:path"),
    import("../trust/index.js"),
    import("../permissions/index.js"),
    import("../tools/workspace.js"),
    import("./run-config.js"),
    import("./prepare-run.js"),
  ]);
  const { PermissionChecker, canonicalToolName, parsePermissionMode, permissionsFromSettings } =
    permissionsModule;
  if (options.mode !== undefined) {
    const mode = parsePermissionMode(options.mode);
    if (typeof mode !== "string") throw new UsageError(`--mode: ${mode.error}`);
  }
  let root: string;
  try {
    root = realpathSync(path.resolve(options.cwd ?? process.cwd()));
  } catch {
    throw new UsageError(`-C: folder not found: ${options.cwd}`);
  }
  // Settings a run could not read stop the check the same way (exit 2).
  // As a run in this folder would see them: an untrusted folder's settings only restrict.
  const loaded = await loadTrustedSettings(root, { trustFlag: options.trust === true });
  const warn = (line: string) => process.stderr.write(`${line}\n`);
  prepare.reportSettingsProblems(loaded.diagnostics, root, warn);
  prepare.reportTrust(loaded, root, warn);
  const { mode, rules, readOnlyCommands, warnings } = permissionsFromSettings(
    loaded.merged.permissions,
    options.mode,
  );
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
  const checker = new PermissionChecker({ mode, rules, root, readOnlyCommands });
  const workspace = new Workspace(root);

  if (options.batch) {
    if (call.length > 0) throw new UsageError("--batch reads commands from stdin; give no command");
    for await (const line of readLines(process.stdin)) {
      if (line.trim() === "") continue;
      let command: unknown;
      try {
        command = JSON.parse(line);
      } catch {
        command = undefined;
      }
      if (typeof command !== "string") {
        process.stdout.write(
          `${JSON.stringify({ error: "each stdin line must be a JSON string (a command)" })}\n`,
        );
        continue;
      }
      const target = { tool: COMMAND_TOOL, effect: "execute" as const, subject: command, root };
      process.stdout.write(`${JSON.stringify(describeCheck(await checker.check(target), mode))}\n`);
    }
    return 0;
  }

  const tool =
    call.length === 2
      ? await findTool(canonicalToolName(call[0]), root, loaded.merged.skills?.paths)
      : undefined;
  const subject = tool ? call[1] : call.join(" ");
  if (subject.trim() === "") throw new UsageError('missing command: hx permissions check -- "<command>"');
  const target = tool
    ? toolTarget(tool, subject, workspace)
    : { tool: COMMAND_TOOL, effect: "execute" as const, subject, root };
  return printCheck(
    await checker.check(target),
    mode,
    options.json === true,
    permissionsModule.describeCall,
    permissionsModule.describeBand,
  );
}

/** A tool call on `subject`: every tool's ruleSubject reads its own argument from the same text. */
function toolTarget(tool: Tool, subject: string, workspace: Workspace): RuleTarget {
  const args = { command: subject, path: subject, name: subject, pattern: subject };
  return {
    tool: tool.name,
    effect: tool.effect,
    subject: tool.ruleSubject?.(args as never, workspace),
    root: workspace.root,
  };
}

function describeCheck(check: PermissionCheck, mode: string) {
  const { decision, line, alwaysRules, target } = check;
  return {
    decision: decision.action,
    tool: target.tool,
    subject: target.subject,
    mode,
    rule: decision.rule?.text,
    reason: decision.reason,
    band: decision.band,
    ...(decision.action === "ask" ? { cause: decision.cause } : {}),
    ...(decision.action !== "allow" && decision.notReadOnly ? { notReadOnly: decision.notReadOnly } : {}),
    ...(line
      ? { commands: line.views.map((view) => view.words.map((w) => (w.literal ? w.text : "$…")).join(" ")) }
      : {}),
    ...(alwaysRules.length > 0 ? { always: alwaysRules } : {}),
  };
}

function printCheck(
  check: PermissionCheck,
  mode: string,
  json: boolean,
  describeCall: (target: RuleTarget) => string,
  describeBand: (band: DecisionBand) => string,
): number {
  const result = describeCheck(check, mode);
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  }
  const why = result.rule ? `rule ${result.rule}` : (result.reason ?? `${mode} mode`);
  process.stdout.write(
    `${result.decision}: ${describeCall(check.target)}\n  ${why}\n  decided by: ${describeBand(result.band)}\n`,
  );
  if (result.notReadOnly)
    process.stdout.write(
      `  not read-only: \`${result.notReadOnly.word}\` in \`${result.notReadOnly.command}\`: ${result.notReadOnly.reason}\n`,
    );
  if (result.always) process.stdout.write(`  "always" would save: ${result.always.join(", ")}\n`);
  return 0;
}

async function* readLines(stream: NodeJS.ReadableStream): AsyncGenerator<string> {
  let pending = "";
  for await (const chunk of stream) {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    yield* lines;
  }
  if (pending !== "") yield pending;
}

/** The tool named `name` (hx's built-in tools and load_skill), or undefined for a command line. */
async function findTool(
  name: string,
  root: string,
  extraPaths: string[] | undefined,
): Promise<Tool | undefined> {
  const { createBaseTools } = await import("../tools/base-tools.js");
  const tool = createBaseTools().find((t) => t.name === name);
  if (tool) return tool;
  const skills = await import("../skills/index.js");
  if (name !== skills.LOAD_SKILL_TOOL_NAME) return undefined;
  const { skills: found } = skills.discoverSkills({ cwd: root, extraPaths });
  return skills.createLoadSkillTool({ skills: found, loaded: new skills.LoadedSkills() });
}
