/**
 * A problem found while reading the user's files (settings, skills, scripts, MCP configs), as
 * data: the CLI and the session read its fields, never parse its text back. `message` is the
 * whole sentence for the user; the other fields say where and what, for JSON output and for
 * code that reacts to a kind of problem.
 */
export interface Diagnostic {
  level: "error" | "warning";
  /** A stable identifier of the kind of problem, e.g. `settings.type`, `skill.name.invalid`. */
  code: string;
  /** The file it was found in, when there is one. */
  file?: string;
  /** Where in the file, as a dotted key path (`permissions.deny`, `skills.paths.0`). */
  keyPath?: string;
  /** One sentence naming the cause and, where there is one, the fix. */
  message: string;
}

/** `file: keyPath: message` (the parts that are present), for a terminal line. */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const where = [diagnostic.file, diagnostic.keyPath].filter(Boolean).join(": ");
  return where ? `${where}: ${diagnostic.message}` : diagnostic.message;
}
