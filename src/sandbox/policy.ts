import { realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type DomainPolicy, domainPatternProblem, normalizeHost } from "./domains.js";
import type { SandboxOptions } from "./sandbox.js";
import { unixSocketGap } from "./seccomp.js";
import { isSandboxMode, SANDBOX_MODES, type SandboxMode, type SandboxSettings } from "./types.js";

/**
 * The sandbox a session runs with: `--sandbox MODE` > settings `sandbox.mode` > workspace-write.
 * `writablePaths` entries may be absolute, `~/...` or relative to the workspace; missing ones
 * are skipped with a warning. Never throws.
 */
export function resolveSandboxOptions(input: {
  flag?: SandboxMode;
  settings?: SandboxSettings;
  workspaceRoot: string;
  home?: string;
}): { options: SandboxOptions; warnings: string[] } {
  const warnings: string[] = [];
  const settings = input.settings ?? {};
  const home = input.home ?? os.homedir();
  let mode: SandboxMode = "workspace-write";
  if (input.flag) mode = input.flag;
  else if (settings.mode !== undefined) {
    if (isSandboxMode(settings.mode)) mode = settings.mode;
    else
      warnings.push(
        `sandbox.mode must be one of ${SANDBOX_MODES.join(", ")} (got ${JSON.stringify(settings.mode)}); using workspace-write.`,
      );
  }
  const writablePaths: string[] = [];
  for (const entry of Array.isArray(settings.writablePaths) ? settings.writablePaths : []) {
    if (typeof entry !== "string" || entry.trim() === "") {
      warnings.push(`sandbox.writablePaths: ${JSON.stringify(entry)} is not a path; skipped.`);
      continue;
    }
    const expanded = entry === "~" ? home : entry.startsWith("~/") ? path.join(home, entry.slice(2)) : entry;
    const absolute = path.resolve(input.workspaceRoot, expanded);
    try {
      if (!statSync(absolute).isDirectory()) throw new Error("not a folder");
      writablePaths.push(realpathSync(absolute));
    } catch {
      warnings.push(`sandbox.writablePaths: ${entry} is not an existing folder; skipped.`);
    }
  }
  const allowList = resolveAllowList(settings.network, warnings);
  return {
    options: {
      mode,
      network: settings.network === true,
      ...(allowList ? { allowList } : {}),
      required: settings.required === true,
      workspaceRoot: input.workspaceRoot,
      writablePaths,
      home,
    },
    warnings,
  };
}

/**
 * `sandbox.network` as an allow-list (`{"allowedDomains": [...], "deniedDomains": [...]}`);
 * undefined for `true`/`false`. A pattern that is not a host is dropped with a warning (a
 * dropped allowed host is refused, a dropped denied one is still not allowed unless listed).
 */
export function resolveAllowList(
  value: SandboxSettings["network"],
  warnings: string[],
): DomainPolicy | undefined {
  if (value === undefined || typeof value === "boolean") return undefined;
  if (value === null || typeof value !== "object") {
    warnings.push('sandbox.network must be true, false or {"allowedDomains": [...]}; the network stays off.');
    return { allowedDomains: [], deniedDomains: [] };
  }
  const list = (key: "allowedDomains" | "deniedDomains"): string[] => {
    const entries = (value as Record<string, unknown>)[key];
    if (entries === undefined) return [];
    if (!Array.isArray(entries)) {
      warnings.push(`sandbox.network.${key} must be a list of host names; ignored.`);
      return [];
    }
    const out: string[] = [];
    for (const entry of entries) {
      const problem = domainPatternProblem(entry);
      if (problem) warnings.push(`sandbox.network.${key}: ${JSON.stringify(entry)} ${problem}; skipped.`);
      else out.push(normalizeHost(entry as string));
    }
    return out;
  };
  return { allowedDomains: list("allowedDomains"), deniedDomains: list("deniedDomains") };
}

/** One sentence for the bash tool's description: what commands may do in this sandbox. */
export function sandboxNoteForModel(options: SandboxOptions): string | undefined {
  if (options.mode === "off") return undefined;
  const writes =
    options.mode === "read-only"
      ? "no writes except /tmp"
      : `writes only in the workspace${options.writablePaths.length > 0 ? `, ${options.writablePaths.join(", ")}` : ""} and /tmp (.hx, .claude, .git/config, .git/hooks read-only)`;
  const sockets = unixSocketGap(options.platform, options.arch) ? "" : ", no Unix sockets";
  const network = options.network
    ? ""
    : options.allowList
      ? `; network only through hx's proxy (HTTP_PROXY is set) to ${options.allowList.allowedDomains.length > 0 ? options.allowList.allowedDomains.join(", ") : "no host yet"}; other hosts are refused or asked${sockets}`
      : `; no network${sockets}`;
  return `Sandboxed: ${writes}${network}.`;
}
