/** The sandbox modes: `workspace-write` (default), `read-only`, `off`. */
export type SandboxMode = "workspace-write" | "read-only" | "off";

export const SANDBOX_MODES = [
  "workspace-write",
  "read-only",
  "off",
] as const satisfies readonly SandboxMode[];

export function isSandboxMode(value: unknown): value is SandboxMode {
  return typeof value === "string" && (SANDBOX_MODES as readonly string[]).includes(value);
}
