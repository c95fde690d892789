import path from "node:path";
import { innerScript, type SimpleCommand, splitShellCommand } from "./shell-split.js";

/**
 * The built-in block list: destructive commands that no permission mode and no rule unlocks.
 *
 * The check works on the simple commands of a command line (see shell-split.ts), after
 * stripping wrappers such as `env`, `nohup`, `time` or `xargs`, and it looks inside
 * `bash -c '...'`, `sh -c`, `eval` and `$(...)`. It judges the command word, not the text:
 * `echo sudo` and `grep -r "rm -rf /" docs` are not blocked, `sudo ls` and
 * `bash -c "rm -rf ~"` are. It is a guard against accidents, not a sandbox.
 */
export function findBlockedCommand(command: string): string | undefined {
  if (FORK_BOMB.test(command)) return "a fork bomb";
  return findInCommands(splitShellCommand(command), 0);
}

/** `:(){ :|:& };:` and the same shape with another function name. */
const FORK_BOMB = /([\w:.-]+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*&?\s*\1\s*&/;

const MAX_DEPTH = 6;

function findInCommands(commands: SimpleCommand[], depth: number): string | undefined {
  for (const simple of commands) {
    const reason = findInSimpleCommand(simple, depth);
    if (reason) return reason;
  }
  return undefined;
}

function findInSimpleCommand(simple: SimpleCommand, depth: number): string | undefined {
  for (const target of simple.writes) {
    if (isBlockDevice(target)) return `writing to the disk device ${target}`;
  }
  const words = stripWrappers(simple.words);
  if (words.length === 0) return undefined;
  const name = path.basename(words[0]);
  const args = words.slice(1);

  if (depth < MAX_DEPTH) {
    const inner = innerScript(name, args);
    if (inner !== undefined) return findInCommands(splitShellCommand(inner), depth + 1);
  }
  if (ROOT_COMMANDS.has(name)) return `${name} (running commands as another user)`;
  if (POWER_COMMANDS.has(name)) return `${name} (stopping the machine)`;
  if ((name === "init" || name === "telinit") && ["0", "6"].includes(args[0])) return `${name} ${args[0]}`;
  if (name === "systemctl" && args.some((arg) => POWER_COMMANDS.has(arg))) return "systemctl power commands";
  if (name.startsWith("mkfs") || FORMAT_COMMANDS.has(name)) return `${name} (formatting a disk)`;
  if (name === "dd" && args.some((arg) => arg.startsWith("if=") || arg.startsWith("of="))) {
    return "dd (raw disk copies)";
  }
  if (name === "rm" && isRecursive(args, "rRr") && args.some(isSweepingTarget)) {
    return `rm -r on ${args.find(isSweepingTarget)}`;
  }
  if (name === "rm" && args.includes("--no-preserve-root")) return "rm --no-preserve-root";
  if ((name === "chmod" || name === "chown" || name === "chgrp") && isRecursive(args, "R")) {
    const target = args.find(isSweepingTarget);
    if (target) return `${name} -R on ${target}`;
  }
  if ((name === "tee" || name === "cp" || name === "mv") && args.some(isBlockDevice)) {
    return `writing to the disk device ${args.find(isBlockDevice)}`;
  }
  return undefined;
}

const ROOT_COMMANDS: ReadonlySet<string> = new Set(["sudo", "su", "doas", "pkexec"]);
const POWER_COMMANDS: ReadonlySet<string> = new Set(["shutdown", "reboot", "halt", "poweroff"]);
const FORMAT_COMMANDS: ReadonlySet<string> = new Set([
  "mke2fs",
  "wipefs",
  "fdisk",
  "sfdisk",
  "parted",
  "diskutil",
]);

/** Commands that run the rest of their words as another command. */
const WRAPPERS: Record<string, { flagsWithValue: string[] }> = {
  env: { flagsWithValue: ["-u", "-C", "-S"] },
  nohup: { flagsWithValue: [] },
  time: { flagsWithValue: ["-f", "-o"] },
  nice: { flagsWithValue: ["-n"] },
  ionice: { flagsWithValue: ["-c", "-n"] },
  exec: { flagsWithValue: ["-a"] },
  command: { flagsWithValue: [] },
  builtin: { flagsWithValue: [] },
  xargs: { flagsWithValue: ["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a"] },
  timeout: { flagsWithValue: ["-s", "-k", "--signal", "--kill-after"] },
  watch: { flagsWithValue: ["-n", "-d"] },
  stdbuf: { flagsWithValue: [] },
};

/** Shell keywords that may start a simple command without being the command. */
const KEYWORDS: ReadonlySet<string> = new Set([
  "{",
  "}",
  "!",
  "if",
  "then",
  "else",
  "elif",
  "do",
  "while",
  "until",
  "time",
]);

function stripWrappers(words: string[]): string[] {
  let rest = words;
  for (let guard = 0; guard < 10 && rest.length > 0; guard += 1) {
    while (rest.length > 0 && (KEYWORDS.has(rest[0]) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]))) {
      rest = rest.slice(1);
    }
    const wrapper = rest.length > 0 ? WRAPPERS[path.basename(rest[0])] : undefined;
    if (!wrapper) return rest;
    const isTimeout = path.basename(rest[0]) === "timeout";
    rest = rest.slice(1);
    while (rest.length > 0 && rest[0].startsWith("-")) {
      const flag = rest[0];
      rest = rest.slice(wrapper.flagsWithValue.includes(flag) ? 2 : 1);
    }
    if (isTimeout && rest.length > 0 && /^\d/.test(rest[0])) rest = rest.slice(1);
  }
  return rest;
}

function isRecursive(args: string[], letters: string): boolean {
  return args.some(
    (arg) =>
      arg === "--recursive" ||
      (/^-[A-Za-z]+$/.test(arg) && [...letters].some((letter) => arg.slice(1).includes(letter))),
  );
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: the shell spelling of $HOME, not a template
const HOME_FORMS = ["~", "$HOME", "${HOME}"];

/**
 * A target whose recursive removal or chmod takes out the system or the home folder: `/`,
 * `/*`, a top-level folder such as `/usr` or `/etc`, `~`, `~/`, `~/*`, `$HOME`.
 * `./build`, `/tmp/x` and `~/project/dist` are not.
 */
function isSweepingTarget(arg: string): boolean {
  if (arg.startsWith("-")) return false;
  let target = arg.replace(/\/+/g, "/");
  for (const home of HOME_FORMS) {
    if (target === home || target.startsWith(`${home}/`)) {
      const rest = target.slice(home.length).replace(/^\/|\/$/g, "");
      return rest === "" || rest === "*" || rest === ".*";
    }
  }
  if (!target.startsWith("/")) return false;
  target = target.replace(/\/\.?$/, "");
  if (target === "" || target === "/*" || target === "/.*") return true;
  return /^\/[^/]+$/.test(target);
}

function isBlockDevice(target: string): boolean {
  return /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk)/.test(target);
}
