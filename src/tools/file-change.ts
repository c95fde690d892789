import { readSmallFileSync } from "../fs/regular-file.js";
import { findOccurrences, replaceAt } from "./text-match.js";
import type { Workspace } from "./workspace.js";

/** A change a call would make to one file, as data: shown as a diff in the approval prompt and after. */
export interface FileChange {
  /** Relative to the workspace root. */
  path: string;
  /** The file's text now ("" for a file that does not exist yet). */
  before: string;
  after: string;
}

/** Files larger than this are not read for a preview (the call itself still runs). */
const MAX_PREVIEW_BYTES = 1_000_000;

/** What `write_file path content` would change; undefined when the file cannot be previewed. */
export function previewWrite(workspace: Workspace, input: string, content: string): FileChange | undefined {
  const file = locate(workspace, input);
  if (!file) return undefined;
  const before = readSmallText(file.absolute);
  return before === undefined ? undefined : { path: file.shown, before, after: content };
}

/**
 * What an `edit_file` would change: the replacement applied to the file's text (line endings
 * as "\n"). Undefined when it would fail (no match, several without replace_all, unreadable).
 */
export function previewEdit(
  workspace: Workspace,
  args: { path: string; old_text: string; new_text: string; replace_all?: boolean },
): FileChange | undefined {
  const file = locate(workspace, args.path);
  if (!file || args.old_text === "") return undefined;
  const raw = readSmallText(file.absolute);
  if (!raw) return undefined;
  const before = raw.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  const oldText = args.old_text.replaceAll("\r\n", "\n");
  const offsets = findOccurrences(before, oldText);
  if (offsets.length === 0 || (offsets.length > 1 && !args.replace_all)) return undefined;
  const after = replaceAt(before, offsets, oldText.length, args.new_text.replaceAll("\r\n", "\n"));
  return { path: file.shown, before, after };
}

function locate(workspace: Workspace, input: string): { absolute: string; shown: string } | undefined {
  try {
    const absolute = workspace.resolveForWrite(input);
    return { absolute, shown: workspace.relative(absolute) };
  } catch {
    return undefined;
  }
}

/** The text of a regular file of bounded size, "" when it does not exist, undefined otherwise. */
function readSmallText(file: string): string | undefined {
  const read = readSmallFileSync(file, MAX_PREVIEW_BYTES);
  if (read.ok) return read.text;
  return read.reason === "missing" ? "" : undefined;
}
