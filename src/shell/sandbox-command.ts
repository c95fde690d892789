import type { SlashCommand } from "../agent/capability.js";
import { isJsonObject, updateJsonObjectFile } from "../fs/json-file.js";
import type { PermissionAsker } from "../permissions/index.js";
import {
  type CommandSandbox,
  type DomainPolicy,
  describeSandbox,
  domainPatternProblem,
  type NetworkAsker,
  normalizeHost,
} from "../sandbox/index.js";

/**
 * `/sandbox`: what holds commands in, and the network for the rest of the session —
 * `/sandbox network on|off|allow-list`, `/sandbox allow HOST`, `/sandbox deny HOST`.
 */
export function sandboxCommand(sandbox: CommandSandbox, settingsList: () => DomainPolicy): SlashCommand {
  return {
    name: "sandbox",
    usage: "/sandbox [network on|off|allow-list | allow HOST | deny HOST]",
    description: "Show the OS sandbox; change commands' network for this session",
    argumentHint: "[network on|off|allow-list | allow HOST | deny HOST]",
    async run(args, io) {
      const [verb, value, ...rest] = args.trim().split(/\s+/).filter(Boolean);
      const show = async () => io.print(describeSandbox(await sandbox.check()));
      if (!verb) return show();
      const current = sandbox.status();
      if (verb === "network" && rest.length === 0) {
        if (value === "on") sandbox.setNetwork(true);
        else if (value === "off") sandbox.setNetwork(false);
        else if (value === "allow-list" || value === "allowlist")
          sandbox.setNetwork(
            current.state === "active" && current.allowList
              ? {
                  allowedDomains: current.allowList.allowedDomains,
                  deniedDomains: current.allowList.deniedDomains,
                }
              : settingsList(),
          );
        else return io.print("usage: /sandbox network on|off|allow-list");
        io.print(`for this session: ${describeSandbox(await sandbox.check())}`);
        return;
      }
      if ((verb === "allow" || verb === "deny") && value && rest.length === 0) {
        const problem = domainPatternProblem(value);
        if (problem) return io.print(`${value} ${problem}.`);
        if (!(current.state === "active" && current.allowList)) {
          // Allowing one host switches an off network to the allow-list; with the network on there is nothing to add.
          if (current.state === "active" && current.network)
            return io.print(
              "the network is on for commands: every host is reachable (/sandbox network allow-list first).",
            );
          sandbox.setNetwork(settingsList());
        }
        sandbox.allowHost(normalizeHost(value), verb === "allow");
        io.print(`for this session: ${describeSandbox(await sandbox.check())}`);
        return;
      }
      io.print(`usage: ${this.usage}`);
    },
  };
}

/**
 * The network question as a permission question, for front ends that ask only those (the
 * full screen): "yes" lets the host through for the session, "always" also saves it.
 */
export function networkAskerFrom(ask: PermissionAsker): NetworkAsker {
  return async ({ host, port }) => {
    const answer = await ask({
      tool: "network",
      effect: "execute",
      subject: host,
      rule: `commands to reach ${host}${port === 443 || port === 80 ? "" : `:${port}`}`,
      alwaysRules: [host],
      reason: `a command asked hx's proxy for ${host}, which sandbox.network.allowedDomains does not list`,
      signal: new AbortController().signal,
    });
    return answer === "yes" ? "session" : answer === "always" ? "always" : "no";
  };
}

/**
 * Saves an "always" answer: the allow-list in force plus `host`, into the project's
 * `.hx/settings.local.json` (a nearer file's `sandbox.network` wins whole, so it keeps the
 * lists it would hide).
 */
export async function saveAllowedDomain(file: string, list: DomainPolicy, host: string): Promise<void> {
  await updateJsonObjectFile(file, (settings) => {
    const sandbox = isJsonObject(settings.sandbox) ? { ...settings.sandbox } : {};
    const network = isJsonObject(sandbox.network) ? sandbox.network : {};
    const allowed = new Set<string>([
      ...list.allowedDomains,
      ...(Array.isArray(network.allowedDomains)
        ? network.allowedDomains.filter((x) => typeof x === "string")
        : []),
      host,
    ]);
    const denied = new Set<string>([
      ...list.deniedDomains,
      ...(Array.isArray(network.deniedDomains)
        ? network.deniedDomains.filter((x) => typeof x === "string")
        : []),
    ]);
    sandbox.network = { allowedDomains: [...allowed], deniedDomains: [...denied].filter((x) => x !== host) };
    settings.sandbox = sandbox;
  });
}
