import os from "node:os";
import path from "node:path";
import type { CommandLine, CommandView, ViewWord } from "./command-line.js";

/**
 * The built-in block list: destructive commands that no permission mode and no rule unlocks.
 *
 * It judges every command the line runs, as the bash parser reads it (command-line.ts):
 * quotes and escapes removed, wrappers (`env`, `timeout`, `xargs`, …), `bash -c`, `eval`,
 * `$(…)`, `find -exec` and pipes into a shell looked through, braces expanded and paths
 * resolved from the folder a `cd` moved to. `echo sudo` and `grep -r "rm -rf /" docs` are not
 * blocked; `sudo ls`, `s\udo ls`, `rm -rf {/,x}` and `cd / && rm -rf *` are. It is a guard
 * against accidents, not a sandbox.
 */
export function findBlockedCommand(
  line: CommandLine,
  options: { root: string; home?: string },
): string | undefined {
  if (line.selfCallingFunctions.length > 0) {
    return `a fork bomb (the function ${line.selfCallingFunctions[0]} calls itself)`;
  }
  const home = options.home ?? os.homedir();
  for (const target of line.fileWrites)
    if (isBlockDevice(target)) return `writing to the disk device ${target}`;
  for (const view of line.views) {
    const reason = blockedView(view, { root: options.root, home });
    if (reason) return reason;
  }
  return undefined;
}

interface Places {
  root: string;
  home: string;
}

function blockedView(view: CommandView, places: Places): string | undefined {
  const [first, ...args] = view.words;
  const name = first.text;
  const texts = args.map((arg) => arg.text);
  if (ROOT_COMMANDS.has(name)) return `${name} (running commands as another user)`;
  if (POWER_COMMANDS.has(name)) return `${name} (stopping the machine)`;
  if ((name === "init" || name === "telinit") && ["0", "6"].includes(texts[0])) return `${name} ${texts[0]}`;
  if (
    (name === "systemctl" || name === "loginctl") &&
    texts.some((arg) => POWER_COMMANDS.has(arg) || arg === "kexec")
  ) {
    return `${name} power commands`;
  }
  if (name.startsWith("mkfs") || FORMAT_COMMANDS.has(name)) return `${name} (formatting a disk)`;
  if ((name === "shred" || name === "blkdiscard") && texts.some(isBlockDevice))
    return `${name} on a disk device`;
  if (name === "dd" && texts.some((arg) => arg.startsWith("if=") || arg.startsWith("of="))) {
    return "dd (raw disk copies)";
  }
  if (name === "kill" && texts.length >= 2 && texts.at(-1) === "-1") return "kill -1 (every process)";
  if (name === "rm") {
    if (texts.includes("--no-preserve-root")) return "rm --no-preserve-root";
    if (isRecursive(texts, "rR")) {
      const reason = sweepingTarget(operandsOf(args), view.cwd, places, true);
      if (reason) return `rm -r on ${reason}`;
    }
  }
  if (
    name === "find" &&
    texts.some((arg) => ["-delete", "-exec", "-execdir", "-ok", "-okdir"].includes(arg))
  ) {
    const starts: ViewWord[] = [];
    for (const arg of args) {
      if (arg.literal && /^[-(!]/.test(arg.text)) break;
      starts.push(arg);
    }
    const reason = sweepingTarget(starts.length > 0 ? starts : [literal(".")], view.cwd, places, false);
    if (reason) return `find -delete/-exec on ${reason}`;
  }
  if ((name === "chmod" || name === "chown" || name === "chgrp") && isRecursive(texts, "R")) {
    const reason = sweepingTarget(operandsOf(args).slice(1), view.cwd, places, false);
    if (reason) return `${name} -R on ${reason}`;
  }
  if (name === "mv") {
    const sources = operandsOf(args).slice(0, -1);
    const reason = sweepingTarget(sources, view.cwd, places, false);
    if (reason) return `mv of ${reason}`;
  }
  if ((name === "tee" || name === "cp" || name === "mv" || name === "install") && texts.some(isBlockDevice)) {
    return `writing to the disk device ${texts.find(isBlockDevice)}`;
  }
  return undefined;
}

const ROOT_COMMANDS: ReadonlySet<string> = new Set([
  "sudo",
  "su",
  "doas",
  "pkexec",
  "run0",
  "runuser",
  "sudoedit",
]);
const POWER_COMMANDS: ReadonlySet<string> = new Set(["shutdown", "reboot", "halt", "poweroff"]);
const FORMAT_COMMANDS: ReadonlySet<string> = new Set([
  "mke2fs",
  "mkswap",
  "wipefs",
  "fdisk",
  "sfdisk",
  "cfdisk",
  "parted",
  "diskutil",
]);

function literal(text: string): ViewWord {
  return { text, literal: true, splits: false, glob: false };
}

/** Arguments that are not options (everything after `--` counts). */
function operandsOf(args: readonly ViewWord[]): ViewWord[] {
  const out: ViewWord[] = [];
  let options = true;
  for (const arg of args) {
    if (options && arg.literal && arg.text === "--") {
      options = false;
      continue;
    }
    if (options && arg.literal && arg.text.startsWith("-") && arg.text.length > 1) continue;
    out.push(arg);
  }
  return out;
}

function isRecursive(args: readonly string[], letters: string): boolean {
  return args.some(
    (arg) =>
      arg === "--recursive" ||
      (/^-[A-Za-z]+$/.test(arg) && [...letters].some((letter) => arg.slice(1).includes(letter))),
  );
}

/**
 * Describes the first target whose removal (or recursive change) takes out the system, a
 * home folder or a folder holding the workspace: `/`, a top-level folder (`/usr`), a home
 * folder (`~`, `~user`, `$HOME`), an ancestor of the workspace, or a glob directly in one of
 * them (`/*`, `/?`, `~/*`). With `computedIsSweeping`, a target computed at run time
 * (`"$(printf /)"`, `$DIR/`) counts too: hx cannot tell where it points.
 */
function sweepingTarget(
  targets: readonly ViewWord[],
  cwd: string | undefined,
  places: Places,
  computedIsSweeping: boolean,
): string | undefined {
  for (const target of targets) {
    if (!target.literal) {
      // Paths xargs reads from stdin are the listing command's output, not shell expansion.
      if (computedIsSweeping && !target.fromInput)
        return `a path computed at run time (${target.text.replaceAll("\u0000", "$…")})`;
      continue;
    }
    const text = target.text;
    if (text === "") continue;
    if (cwd === undefined && !path.isAbsolute(text) && !text.startsWith("~")) {
      if (computedIsSweeping && (target.glob || /^\.\.?(\/|$)/.test(text))) {
        return `${text} in a folder a cd made unknown`;
      }
      continue;
    }
    const absolute = resolveTarget(text, cwd ?? places.root, places.home);
    if (isSweepingPath(absolute.path, places) || (absolute.user && absolute.rest === "")) return text;
    if (target.glob && isSweepingPath(globBase(absolute.path), places)) return text;
  }
  return undefined;
}

function resolveTarget(
  text: string,
  cwd: string,
  home: string,
): { path: string; user: boolean; rest: string } {
  if (text.startsWith("~")) {
    const slash = text.indexOf("/");
    const user = slash === -1 ? text.slice(1) : text.slice(1, slash);
    const rest = slash === -1 ? "" : text.slice(slash + 1).replace(/\/+$/, "");
    const base = user === "" ? home : path.join(path.dirname(home), user);
    return { path: path.resolve(base, rest), user: user !== "", rest };
  }
  return { path: path.resolve(cwd, text), user: false, rest: text };
}

/** The folder part of a glob before its first wildcard segment. */
function globBase(pattern: string): string {
  const segments = pattern.split("/");
  const index = segments.findIndex((segment) => /[*?[]/.test(segment));
  return index === -1 ? pattern : segments.slice(0, index).join("/") || "/";
}

function isSweepingPath(absolute: string, places: Places): boolean {
  const normalized = path.resolve(absolute);
  if (normalized === "/" || /^\/[^/]+$/.test(normalized)) return true;
  if (isAncestorOrSelf(normalized, places.home)) return true;
  return isAncestorOrSelf(normalized, places.root) && normalized !== places.root;
}

function isAncestorOrSelf(candidate: string, of: string): boolean {
  const rel = path.relative(candidate, of);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function isBlockDevice(target: string): boolean {
  return /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|dm-|md\d|loop)/.test(target);
}
