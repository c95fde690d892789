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
      return `sandbox: ${status.mode} (${status.backend}), network ${status.network ? "on" : "off"}${status.unixSocketGap ? `, Unix sockets of the host reachable (${status.unixSocketGap})` : ""}`;
  }
}
