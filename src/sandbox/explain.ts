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
