import path from "node:path";
import type { Escalation } from "../core/tool.js";

/**
 * A note for the model when a sandboxed command failed the way the sandbox makes commands
 * fail, so it changes course instead of retrying: writes outside the writable folders give
 * "Read-only file system", and without network names do not resolve. Empty otherwise.
 */
export function explainSandboxFailure(
  output: string,
  refusedHosts: readonly string[] = [],
  /** The network goes through the allow-list's proxy (`refusedHosts` comes from it). */
  allowList = false,
): string {
  const notes: string[] = [];
  for (const host of refusedHosts)
    notes.push(
      `the network proxy refused ${host}: it is not on the sandbox's allow-list. Do not retry; ask the user to allow it (/sandbox allow ${host} in the session, or "${host}" in sandbox.network.allowedDomains)`,
    );
  if (/Read-only file system|EROFS/.test(output)) {
    notes.push(
      "writes outside the workspace and the temp dir are refused, and protected paths (.hx, .claude, .mcp.json, .git/config, .git/hooks) are read-only; write inside the workspace, or ask the user to add the folder to sandbox.writablePaths",
    );
  }
  if (
    refusedHosts.length === 0 &&
    /Could not resolve host|Temporary failure in name resolution|Network is unreachable|getaddrinfo E(AI_AGAIN|NOTFOUND)|Name or service not known/.test(
      output,
    )
  ) {
    notes.push(
      allowList
        ? "commands reach the network only through hx's proxy (HTTP_PROXY / HTTPS_PROXY are set), to the hosts the user allowed; a program that ignores those variables cannot resolve names"
        : "the network is off for commands; ask the user to set sandbox.network to true if it is needed",
    );
  }
  return notes.length === 0 ? "" : `\n\n[hx sandbox: ${notes.join("; ")}.]`;
}

/** `touch: cannot touch '/x/y': Read-only file system`, `bash: /x/y: Read-only file system`, Python's `[Errno 30] Read-only file system: '/x/y'`. */
const READ_ONLY_PATH = [
  /'([^'\n]+)': Read-only file system/,
  /Read-only file system: '([^'\n]+)'/,
  /(?:^|[\s:])(\/[^:\n']+): Read-only file system/,
];

const NO_NETWORK =
  /Could not resolve host|Temporary failure in name resolution|Network is unreachable|getaddrinfo E(AI_AGAIN|NOTFOUND)|Name or service not known/;

/**
 * What the sandbox refused a command that failed, as an offer the user may take (a re-run
 * outside the sandbox, or the folder or the network for the session); undefined when the
 * failure does not look like the sandbox's. The folder is the refused file's, named only when
 * the error says which file and it lies outside the workspace (inside it, only protected
 * paths are read-only, and those stay so); the network only when it is off (an allow-list's
 * hosts are asked by its proxy).
 */
export function sandboxEscalation(
  output: string,
  context: { cwd: string; workspaceRoot: string; canAddWritable: boolean; networkOff: boolean },
): Escalation | undefined {
  if (/Read-only file system|EROFS/.test(output)) {
    const named = READ_ONLY_PATH.map((pattern) => pattern.exec(output)?.[1]).find(Boolean);
    const file = named ? path.resolve(context.cwd, named) : undefined;
    const folder = file ? path.dirname(file) : undefined;
    const addable =
      folder !== undefined &&
      context.canAddWritable &&
      folder !== path.parse(folder).root &&
      !isWithin(folder, context.workspaceRoot);
    return {
      refused: file ? `a write to ${file} (Read-only file system)` : "a write (Read-only file system)",
      ...(addable ? { session: { writable: folder } } : {}),
    };
  }
  if (context.networkOff && NO_NETWORK.test(output))
    return { refused: "the network (it is off for commands)", session: { network: true } };
  return undefined;
}

function isWithin(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
