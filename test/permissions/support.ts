import type { ToolEffect } from "../../src/core/tool.js";
import { createBashParserLoader } from "../../src/permissions/bash-parser.js";
import { PermissionChecker } from "../../src/permissions/checker.js";
import { type CommandLine, readCommandLine } from "../../src/permissions/command-line.js";
import type { PermissionDecision } from "../../src/permissions/decide.js";
import type { PermissionMode } from "../../src/permissions/modes.js";
import { isReadOnlyName } from "../../src/permissions/read-only-commands.js";
import { parseRules } from "../../src/permissions/rules.js";
import { tempDir } from "../support/temp-dir.js";

/** One parser for a test file (loading it takes a few milliseconds). */
export const loadParser = createBashParserLoader();

/** A fresh workspace folder (a real path, removed when the tests end). */
export function tempRoot(): string {
  return tempDir("hx-perm-");
}

export interface CheckSetup {
  mode?: PermissionMode;
  allow?: string[];
  ask?: string[];
  deny?: string[];
  root?: string;
  home?: string;
  readOnlyCommands?: boolean;
}

export function checker(setup: CheckSetup = {}): PermissionChecker {
  const { rules } = parseRules({ allow: setup.allow, ask: setup.ask, deny: setup.deny });
  return new PermissionChecker({
    mode: setup.mode ?? "default",
    rules,
    root: setup.root ?? tempRoot(),
    home: setup.home,
    readOnlyCommands: setup.readOnlyCommands,
    loadParser,
  });
}

/** The decision for one call. */
export async function decide(
  setup: CheckSetup,
  tool: string,
  effect: ToolEffect,
  subject?: string,
): Promise<PermissionDecision> {
  return (await checker(setup).check({ tool, effect, subject })).decision;
}

/** The decision for a bash command line. */
export async function decideCommand(setup: CheckSetup, command: string): Promise<PermissionDecision> {
  return decide(setup, "bash", "execute", command);
}

/** A command line as the permission check reads it. */
export async function readLine(command: string, root = "/ws"): Promise<CommandLine> {
  return readCommandLine(await loadParser(), command, {
    cwd: root,
    home: "/home/u",
    isReadOnlyName,
  });
}
