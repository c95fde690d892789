import { realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { userSettingsDir } from "../config/settings.js";
import { loadSettings } from "../settings/index.js";
import {
  applyFolderTrust,
  loadFolderTrust,
  readTrustStore,
  recordTrust,
  revokeTrust,
  trustFile,
  trustKey,
} from "../trust/index.js";
import { UsageError } from "./run-config.js";

const out = (text: string) => process.stdout.write(`${text}\n`);
const err = (text: string) => process.stderr.write(`${text}\n`);

/** `hx trust`: records, revokes or lists trusted folders. Returns the exit code. */
export async function runTrustCommand(
  dir: string | undefined,
  options: { revoke?: boolean; list?: boolean },
): Promise<number> {
  const file = trustFile(userSettingsDir());
  if (options.list) {
    if (dir !== undefined || options.revoke) throw new UsageError("--list takes no folder and no --revoke.");
    const read = readTrustStore(file);
    if (!read.ok) {
      err(`hx: ${read.problem}; every folder counts as untrusted until it is fixed.`);
      return 1;
    }
    const entries = Object.entries(read.store.folders).sort(([a], [b]) => a.localeCompare(b));
    if (entries.length === 0) out("No trusted folders. Trust one with: hx trust [DIR]");
    for (const [folder, { trustedAt }] of entries)
      out(trustedAt ? `${folder}  (since ${trustedAt})` : folder);
    return 0;
  }
  const target = path.resolve(dir ?? process.cwd());
  try {
    if (!statSync(target).isDirectory()) throw new Error();
  } catch {
    throw new UsageError(`'${dir ?? target}' is not a folder.`);
  }
  const key = trustKey(target);
  try {
    if (options.revoke) {
      const found = await revokeTrust(file, key);
      const still = loadFolderTrust(key, userSettingsDir());
      if (still.trusted && still.recordedFor) {
        out(
          `${found ? `No longer trusting ${key} itself, but it` : `${key} is not trusted by itself; it`} is still trusted through ${still.recordedFor}. Revoke that with: hx trust --revoke ${still.recordedFor}`,
        );
        return found ? 0 : 1;
      }
      out(found ? `No longer trusting ${key}.` : `${key} was not trusted; nothing changed.`);
      return 0;
    }
    await recordTrust(file, key);
  } catch (error) {
    err(`hx: ${(error as Error).message}`);
    return 1;
  }
  out(
    `Trusted ${key}${key !== target ? ` (the project root of ${target})` : ""}; recorded in ${tilde(file)}.`,
  );
  if (key === path.parse(key).root || key === realHome())
    out(
      "Every folder below it is trusted too: a repository you clone there later applies its settings unasked.",
    );
  // What now applies that did not: the untrusted view of the same files.
  const untrusted = applyFolderTrust(await loadSettings(key), { trusted: false, source: "none", key });
  for (const { file: settingsFile, ignored } of untrusted.ignored)
    out(
      `  now applies from ${path.relative(key, settingsFile) || settingsFile}: ${ignored.map((i) => `${i.key} (${i.value})`).join(", ")}`,
    );
  out("Its project skills' allowed-tools are honoured too. Undo with: hx trust --revoke");
  return 0;
}

function realHome(): string {
  try {
    return realpathSync(os.homedir());
  } catch {
    return os.homedir();
  }
}

function tilde(file: string): string {
  const home = os.homedir();
  return file.startsWith(`${home}/`) ? `~/${file.slice(home.length + 1)}` : file;
}
