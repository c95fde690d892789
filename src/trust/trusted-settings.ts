import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { userSettingsDir } from "../config/settings.js";
import { type LoadedSettings, loadSettings, mergeSettings } from "../settings/index.js";
import { type FolderTrust, loadFolderTrust } from "./folder-trust.js";
import { type IgnoredSetting, keepRestrictions } from "./restrict-settings.js";

/** What one untrusted project file asked for and did not get. */
interface IgnoredFile {
  file: string;
  ignored: IgnoredSetting[];
}

/** Settings as they apply in this folder: project files filtered unless the folder is trusted. */
export interface TrustedSettings extends LoadedSettings {
  trust: FolderTrust;
  /** What untrusted project files asked for and did not get (empty when trusted). */
  ignored: IgnoredFile[];
  /** Every file as read: what trusting the folder would apply. */
  unfiltered: LoadedSettings;
}

/**
 * Applies folder trust to settings as read: the user file always applies whole; project files
 * (`.hx/settings.json` and `.hx/settings.local.json`, which a repository can commit just the
 * same) apply whole only in a trusted folder, and otherwise only where they restrict (see
 * keepRestrictions, judged against what applies before each file).
 */
export function applyFolderTrust(loaded: LoadedSettings, trust: FolderTrust): TrustedSettings {
  if (trust.trusted) return { ...loaded, trust, ignored: [], unfiltered: loaded };
  const files: LoadedSettings["files"] = [];
  const ignored: IgnoredFile[] = [];
  for (const file of loaded.files) {
    if (file.scope === "user") {
      files.push(file);
      continue;
    }
    const restricted = keepRestrictions(file.settings, mergeSettings(files.map((f) => f.settings)));
    files.push({ ...file, settings: restricted.kept });
    if (restricted.ignored.length > 0) ignored.push({ file: file.path, ignored: restricted.ignored });
  }
  return {
    merged: mergeSettings(files.map((f) => f.settings)),
    files,
    diagnostics: loaded.diagnostics,
    trust,
    ignored,
    unfiltered: loaded,
  };
}

/**
 * The settings of `cwd` with folder trust applied: what every command that runs in a folder
 * reads (a session, `hx context`, `hx permissions check`, `hx doctor`). `trustFlag`: `--trust`.
 */
export async function loadTrustedSettings(
  cwd: string,
  options: { trustFlag?: boolean; homeDir?: string; userHxDir?: string } = {},
): Promise<TrustedSettings> {
  const trust = loadFolderTrust(cwd, options.userHxDir ?? userSettingsDir(), {
    flag: options.trustFlag,
    homeDir: options.homeDir ?? os.homedir(),
  });
  return applyFolderTrust(await loadSettings(cwd), trust);
}

/**
 * Whether what a project file asks for may apply: always in a trusted folder; otherwise only
 * for files outside the project (the user's own skills in `~/.agents/skills`). For skills'
 * `allowed-tools`, their `` !`cmd` `` lines and `hooks:`, and any file a repository could ship.
 */
export function projectFileTrusted(file: string, trust: FolderTrust): boolean {
  if (trust.trusted) return true;
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    real = path.resolve(file);
  }
  const relative = path.relative(trust.key, real);
  const inside = relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
  return !inside;
}

/** How to trust the folder, for the end of a line. */
export function howToTrust(trust: Pick<FolderTrust, "key">): string {
  return `trust it with \`hx trust ${shellWord(trust.key)}\` (or --trust for one run)`;
}

/**
 * The one line about an untrusted folder, or undefined when nothing was ignored:
 * `this folder is not trusted, so hx ignored what its settings would loosen: .hx/settings.json:
 * permissions.defaultMode "bypassPermissions", hooks.SessionStart (1 hook); trust it with …`.
 */
export function untrustedNotice(
  settings: Pick<TrustedSettings, "ignored" | "trust">,
  cwd: string,
): string | undefined {
  if (settings.ignored.length === 0) return undefined;
  const parts = settings.ignored.map(
    ({ file, ignored }) =>
      `${displayFile(file, cwd)}: ${ignored.map((i) => `${i.key} (${i.value})`).join(", ")}`,
  );
  return `this folder is not trusted, so hx ignored what its settings would loosen: ${parts.join("; ")}. To apply them, ${howToTrust(settings.trust)}.`;
}

/** The line about a broken trust file, or undefined. */
export function trustProblemNotice(trust: FolderTrust): string | undefined {
  if (!trust.problem) return undefined;
  return `warning: ${trust.problem}; every folder counts as untrusted until it is fixed (hx leaves the file unchanged).`;
}

function displayFile(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
