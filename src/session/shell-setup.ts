import { ProcessGroups } from "../process/process-groups.js";
import {
  type CommandSandbox,
  createSandbox,
  describeSandbox,
  resolveSandboxOptions,
  type SandboxMode,
  sandboxNoteForModel,
} from "../sandbox/index.js";
import { childEnvironment, secretValues } from "../secrets/child-env.js";
import { createSecretRedaction } from "../secrets/redaction-extension.js";
import type { BashToolOptions } from "../tools/bash.js";
import type { Capability, SessionBasics } from "./capability.js";

export interface ShellCapability extends Capability {
  /** How the bash tool runs commands: in the sandbox, with the scrubbed environment. */
  bash: BashToolOptions;
  /** The environment hooks start from (secrets removed, passthrough kept). */
  childEnv: () => Record<string, string>;
  /** Every process group the session's commands and hooks run in; killed when hx exits. */
  groups: ProcessGroups;
  /** The OS sandbox; also for stdio MCP servers (`sandbox.launch(command, args, {cwd, env})`). */
  sandbox: CommandSandbox;
}

/**
 * What runs outside the loop: the OS sandbox around bash, the environment children get
 * (without secrets), the process groups that die with hx, and the redaction of secret values
 * in tool output (before the model, the transcript or a spill file sees it). With -v, says
 * what sandbox is in force.
 */
export async function setUpShell(
  basics: SessionBasics,
  options: { /** `--sandbox MODE`, already validated. */ sandboxMode?: SandboxMode },
): Promise<ShellCapability> {
  const { options: sandboxOptions, warnings } = resolveSandboxOptions({
    flag: options.sandboxMode,
    settings: basics.settings.sandbox,
    workspaceRoot: basics.workspace.root,
  });
  const passthrough = basics.settings.shell?.env?.passthrough ?? [];
  const childEnv = () => childEnvironment(process.env, { passthrough });
  const groups = new ProcessGroups();
  const sandbox = createSandbox(sandboxOptions);
  if (basics.verbose) basics.log(describeSandbox(await sandbox.check()));
  return {
    name: "shell",
    bash: { env: childEnv, sandbox, groups, sandboxNote: sandboxNoteForModel(sandboxOptions) },
    childEnv,
    groups,
    sandbox,
    extensions: [createSecretRedaction(secretValues(process.env))],
    warnings,
    close() {
      groups.killAll();
      sandbox.dispose();
    },
  };
}
