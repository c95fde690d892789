import type { SandboxStatus } from "./types.js";

/** One line for the status bar, `-v` and `hx doctor`: what holds commands in. */
export function describeSandbox(status: SandboxStatus): string {
  switch (status.state) {
    case "off":
      return "sandbox: off";
    case "unchecked":
      return `sandbox: ${status.mode} (${status.backend}, not started yet)`;
    case "unavailable":
      return `sandbox: unavailable, ${status.required ? "commands refused" : "permission check only"} (${status.reason})`;
    case "active":
      return `sandbox: ${status.mode} (${status.backend}), network ${describeNetwork(status)}${status.unixSocketGap ? `, Unix sockets of the host reachable (${status.unixSocketGap})` : ""}`;
  }
}

/** `on`, `off`, or the allow-list: `only example.com, *.npmjs.org (through hx's proxy)`. */
function describeNetwork(status: Extract<SandboxStatus, { state: "active" }>): string {
  if (status.network) return "on";
  const list = status.allowList;
  if (!list) return "off";
  if (status.allowListProblem) return `off (the allow-list cannot start: ${status.allowListProblem})`;
  const hosts = [...list.allowedDomains, ...list.sessionAllowed.map((host) => `${host} (this session)`)];
  const denied = [...list.deniedDomains, ...list.sessionDenied];
  return `only ${hosts.length > 0 ? hosts.join(", ") : "hosts you allow"} (through hx's proxy${denied.length > 0 ? `; never ${denied.join(", ")}` : ""})`;
}
