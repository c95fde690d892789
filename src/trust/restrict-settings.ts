import type { Settings } from "../settings/index.js";

/** What an untrusted project file asked for and did not get, for the one line the user sees. */
export interface IgnoredSetting {
  /** The key path, e.g. `permissions.allow`, `hooks.SessionStart`, `sandbox.mode`. */
  key: string;
  /** What it would have done, short: `"bypassPermissions"`, `3 rules`, `1 hook`. */
  value: string;
}

export interface RestrictedSettings {
  /** The part of the file that only restricts (or changes nothing that protects). */
  kept: Settings;
  ignored: IgnoredSetting[];
}

/** Keys with no bearing on what runs unasked: kept from any file. */
const NEUTRAL_KEYS = [
  "$schema",
  "provider",
  "model",
  "maxTurns",
  "thinking",
  "contextWindow",
  "verbose",
  "logHooks",
  "prices",
  // Turning project servers off is always safe; enabling them is honoured from the user file only.
  "disabledMcpjsonServers",
  "enableAllProjectMcpServers",
  "enabledMcpjsonServers",
] as const satisfies ReadonlyArray<keyof Settings>;

/** Strictest first. */
const MODE_STRICTNESS = ["plan", "default", "acceptEdits", "bypassPermissions"];
const SANDBOX_STRICTNESS = ["read-only", "workspace-write", "off"];

/**
 * The part of a settings file from a folder the user has not trusted that may apply: what
 * restricts (deny and ask rules, a stricter mode or sandbox, the read-only list off, the
 * sandbox required, the network off) and what is neutral (model, prices, budgets). Everything
 * else — allow rules, a looser `defaultMode`, `sandbox.mode`/`network`/`writablePaths`, hooks,
 * `shell.env.passthrough`, `baseURL` (where your API key is sent), `skills.paths`, the MCP
 * sandbox switches, and any key this function does not know — is dropped and listed. `base`
 * is what applies before this file (the user's settings): a mode is stricter than that.
 * MCP servers (`mcpServers`) are kept: each project server still needs its own approval.
 */
export function keepRestrictions(settings: Settings, base: Settings = {}): RestrictedSettings {
  const kept: Settings = {};
  const ignored: IgnoredSetting[] = [];
  const drop = (key: string, value: unknown, text = describe(value)) => ignored.push({ key, value: text });
  const keptRecord = kept as Record<string, unknown>;
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if ((NEUTRAL_KEYS as readonly string[]).includes(key)) keptRecord[key] = value;
    else if (key === "mcpServers") kept.mcpServers = settings.mcpServers;
    else if (key === "hooks") dropHooks(value as NonNullable<Settings["hooks"]>, drop);
    else if (key === "shell" && settings.shell?.env?.passthrough)
      drop(
        "shell.env.passthrough",
        settings.shell.env.passthrough,
        count(settings.shell.env.passthrough.length, "variable"),
      );
    else if (!["permissions", "sandbox", "skills", "mcp"].includes(key)) drop(key, value);
  }

  const permissions = settings.permissions;
  if (permissions) {
    const out: NonNullable<Settings["permissions"]> = {};
    if (permissions.deny?.length) out.deny = permissions.deny;
    if (permissions.ask?.length) out.ask = permissions.ask;
    if (permissions.allow?.length)
      drop("permissions.allow", permissions.allow, count(permissions.allow.length, "rule"));
    if (permissions.readOnlyCommands === false) out.readOnlyCommands = false;
    else if (permissions.readOnlyCommands === true) drop("permissions.readOnlyCommands", true);
    const mode = permissions.defaultMode;
    if (mode !== undefined) {
      if (stricter(MODE_STRICTNESS, mode, base.permissions?.defaultMode ?? "default")) out.defaultMode = mode;
      else if (mode !== (base.permissions?.defaultMode ?? "default")) drop("permissions.defaultMode", mode);
    }
    for (const key of Object.keys(permissions)) {
      if (!["deny", "ask", "allow", "readOnlyCommands", "defaultMode"].includes(key))
        drop(`permissions.${key}`, (permissions as Record<string, unknown>)[key]);
    }
    if (Object.keys(out).length > 0) kept.permissions = out;
  }

  const sandbox = settings.sandbox as Record<string, unknown> | undefined;
  if (sandbox) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(sandbox)) {
      if (value === undefined) continue;
      if (key === "mode") {
        const current = base.sandbox?.mode ?? "workspace-write";
        if (stricter(SANDBOX_STRICTNESS, value as string, current)) out.mode = value;
        else if (value !== current) drop("sandbox.mode", value);
      } else if (key === "network" && value === false) out.network = false;
      else if (key === "required") {
        if (value === true) out.required = true;
        else if (base.sandbox?.required === true) drop("sandbox.required", value);
      } else drop(`sandbox.${key}`, value);
    }
    if (Object.keys(out).length > 0) kept.sandbox = out as Settings["sandbox"];
  }

  const skills = settings.skills;
  if (skills) {
    const { paths, ...rest } = skills;
    if (paths?.length) drop("skills.paths", paths);
    if (Object.values(rest).some((v) => v !== undefined)) kept.skills = rest;
  }

  const mcp = settings.mcp;
  if (mcp) {
    const { sandbox: mcpSandbox, sandboxNetwork, browser, elicitation, sampling, ...rest } = mcp;
    const out: NonNullable<Settings["mcp"]> = { ...rest };
    if (mcpSandbox === false) drop("mcp.sandbox", false);
    else if (mcpSandbox === true) out.sandbox = true;
    if (sandboxNetwork === true) drop("mcp.sandboxNetwork", true);
    else if (sandboxNetwork === false) out.sandboxNetwork = false;
    // A browser command runs with the URL; servers' forms answered and the model lent unasked.
    if (browser !== undefined) drop("mcp.browser", browser);
    if (elicitation === "defaults") drop("mcp.elicitation", elicitation);
    else if (elicitation !== undefined) out.elicitation = elicitation;
    if (sampling === "allow") drop("mcp.sampling", sampling);
    else if (sampling !== undefined) out.sampling = sampling;
    if (Object.values(out).some((v) => v !== undefined)) kept.mcp = out;
  }

  return { kept, ignored };
}

/** Hooks run commands: each event's hooks are dropped and listed (`hooks.SessionStart`, `1 hook`). */
function dropHooks(
  hooks: NonNullable<Settings["hooks"]>,
  drop: (key: string, value: unknown, text: string) => void,
): void {
  for (const [event, groups] of Object.entries(hooks)) {
    if (!groups?.length) continue;
    const hooksCount = groups.reduce((n, group) => n + group.hooks.length, 0);
    drop(`hooks.${event}`, groups, count(hooksCount, "hook"));
  }
}

/** True when `value` is stricter than `than` in `order` (strictest first); unknown values never are. */
function stricter(order: readonly string[], value: string, than: string): boolean {
  const a = order.indexOf(value);
  const b = order.indexOf(than);
  return a >= 0 && (b < 0 || a < b);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return count(value.length, "entry", "entries");
  if (typeof value === "string") return JSON.stringify(value);
  if (value !== null && typeof value === "object") return count(Object.keys(value).length, "key");
  return String(value);
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
