/**
 * The network allow-list (`sandbox.network: {"allowedDomains": [...], "deniedDomains": [...]}`,
 * the shape of Anthropic's sandbox-runtime): which hosts the sandbox's proxy lets commands reach.
 * A pattern is a host name (`registry.npmjs.org`, matched exactly), a wildcard (`*.npmjs.org`:
 * every subdomain, not `npmjs.org` itself), or an IP address (`127.0.0.1`, `::1`). Matching
 * ignores case and a trailing dot. Denied wins over allowed.
 */
export interface DomainPolicy {
  allowedDomains: string[];
  deniedDomains: string[];
}

/** The allow-list in force for a session: the settings' lists plus what was allowed meanwhile. */
export interface AllowListState extends DomainPolicy {
  /** Hosts allowed (or refused) for this session by an answer or `/sandbox`. */
  sessionAllowed: string[];
  sessionDenied: string[];
}

/** What the proxy does with a host: let it through, refuse it, or ask the user (headless: refuse). */
export type HostVerdict = "allow" | "deny" | "ask";

/** A host as the proxy compares it: lower case, no trailing dot, no IPv6 brackets. */
export function normalizeHost(host: string): string {
  let out = host.trim().toLowerCase();
  if (out.startsWith("[") && out.endsWith("]")) out = out.slice(1, -1);
  while (out.endsWith(".")) out = out.slice(0, -1);
  return out;
}

/** Why `pattern` is not usable in the allow-list, or undefined when it is. */
export function domainPatternProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== "string" || pattern.trim() === "") return "is not a host name";
  const host = normalizeHost(pattern);
  if (host.includes("://") || host.includes("/")) return "must be a host name, without scheme or path";
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) || (host.includes(":") && /^[0-9a-f:.]+$/.test(host)))
    return undefined;
  if (host.includes(":")) return "must not carry a port (every port of an allowed host is allowed)";
  const name = host.startsWith("*.") ? host.slice(2) : host;
  if (name === "" || name.includes("*")) return "may only start with one `*.` wildcard";
  if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(name))
    return "is not a host name";
  if (host.startsWith("*.") && !name.includes("."))
    return "is too wide (a wildcard needs a domain with a dot)";
  return undefined;
}

/** Whether `host` matches `pattern` (both as in the header). */
export function matchesDomain(host: string, pattern: string): boolean {
  const name = normalizeHost(host);
  const wanted = normalizeHost(pattern);
  if (wanted.startsWith("*.")) return name.endsWith(wanted.slice(1)) && name.length > wanted.length - 1;
  return name === wanted;
}

/** The verdict for `host` under `policy` and the hosts allowed for this session so far. */
export function judgeHost(
  host: string,
  policy: DomainPolicy,
  sessionAllowed: readonly string[] = [],
): HostVerdict {
  if (policy.deniedDomains.some((pattern) => matchesDomain(host, pattern))) return "deny";
  if ([...policy.allowedDomains, ...sessionAllowed].some((pattern) => matchesDomain(host, pattern)))
    return "allow";
  return "ask";
}
