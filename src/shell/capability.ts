import type { Capability, SessionBasics } from "../agent/capability.js";
import { localSettingsPath } from "../config/settings.js";
import { createSecretRedaction } from "../guards/index.js";
import type { PermissionAsker } from "../permissions/index.js";
import { ProcessGroups } from "../process/process-groups.js";
import type { SandboxSettings } from "../sandbox/index.js";
import {
  type CommandSandbox,
  createSandbox,
  type DomainPolicy,
  describeSandbox,
  type NetworkAsker,
  resolveSandboxOptions,
  type SandboxMode,
  type SandboxOptions,
  sandboxNoteForModel,
} from "../sandbox/index.js";
import { childEnvironment, secretValues } from "../secrets/child-env.js";
import type { EnvSettings, ShellSettings } from "../secrets/settings.js";
import type { BashToolOptions } from "../tools/bash.js";
import { networkAskerFrom, sandboxCommand, saveAllowedDomain } from "./sandbox-command.js";

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
  basics: SessionBasics<{ sandbox?: SandboxSettings; shell?: ShellSettings; env?: EnvSettings }>,
  options: {
    /** `--sandbox MODE`, already validated. */ sandboxMode?: SandboxMode;
    /** The network allow-list's question (line mode). */
    askNetwork?: NetworkAsker;
    /** Asks it as a permission question where there is no `askNetwork` (full screen). */
    ask?: PermissionAsker;
  },
): Promise<ShellCapability> {
  const resolved = resolveSandboxOptions({
    flag: options.sandboxMode,
    settings: basics.settings.sandbox,
    workspaceRoot: basics.workspace.root,
  });
  const { warnings } = resolved;
  const settingsList = (): DomainPolicy =>
    resolved.options.allowList ?? { allowedDomains: [], deniedDomains: [] };
  const askNetwork = options.askNetwork ?? (options.ask ? networkAskerFrom(options.ask) : undefined);
  const sandboxOptions: SandboxOptions = {
    ...resolved.options,
    // Headless: no question, so hosts not on the list are refused at once.
    ...(askNetwork ? { askNetwork } : {}),
    saveAllowedDomain: (host) => {
      const status = sandbox.status();
      const list = status.state === "active" && status.allowList ? status.allowList : settingsList();
      return saveAllowedDomain(localSettingsPath(basics.workspace.root), list, host);
    },
  };
  const passthrough = basics.settings.shell?.env?.passthrough ?? [];
  // settings.env (Claude Code's `env`) is set for every command and hook, as the user wrote it.
  const childEnv = () => ({ ...childEnvironment(process.env, { passthrough }), ...basics.settings.env });
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
    commands: [sandboxCommand(sandbox, settingsList)],
    warnings,
    close() {
      groups.killAll();
      sandbox.dispose();
    },
  };
}
