// `hx skills add|update|remove`: loaded only when one of them runs.
import { findProjectRoot } from "../config/project-root.js";
import {
  addSkills,
  InstallError,
  type InstalledSkill,
  installTarget,
  removeSkill,
  updateSkills,
} from "../skills/install/install.js";
import { UsageError } from "./run-config.js";
import type { Io } from "./skills-actions.js";

export interface InstallFlags {
  cwd: string;
  global?: boolean;
  homeDir?: string;
}

function targetOf(flags: InstallFlags) {
  return installTarget({
    projectRoot: findProjectRoot(flags.cwd),
    global: flags.global,
    homeDir: flags.homeDir,
  });
}

export async function runAdd(
  source: string,
  flags: InstallFlags & { skill?: string[]; ref?: string },
  io: Io,
): Promise<number> {
  const target = targetOf(flags);
  return reported(io, async () => {
    const installed = await addSkills({ source, cwd: flags.cwd, target, names: flags.skill, ref: flags.ref });
    for (const skill of installed) describe("Installed", skill, io);
    io.out(`Recorded in ${target.lockFile}\n`);
  });
}

export async function runUpdate(
  names: string[],
  flags: InstallFlags & { force?: boolean },
  io: Io,
): Promise<number> {
  const target = targetOf(flags);
  return reported(io, async () => {
    const result = await updateSkills({ target, names, force: flags.force });
    for (const skill of result.updated) describe("Updated", skill, io);
    for (const name of result.unchanged) io.out(`${name} is up to date\n`);
  });
}

export async function runRemove(name: string, flags: InstallFlags, io: Io): Promise<number> {
  const target = targetOf(flags);
  return reported(io, async () => {
    const dir = await removeSkill({ target, name });
    io.out(`Removed ${name} (${dir}) and its entry in ${target.lockFile}\n`);
  });
}

function describe(verb: string, skill: InstalledSkill, io: Io): void {
  const ref = skill.entry.ref ? ` at ${skill.entry.ref.slice(0, 12)}` : "";
  const was =
    skill.previousRef && skill.previousRef !== skill.entry.ref
      ? ` (was ${skill.previousRef.slice(0, 12)})`
      : "";
  io.out(`${verb} ${skill.name} from ${skill.entry.source}${ref}${was} into ${skill.dir}\n`);
  if (skill.scripts.length > 0) {
    io.out(`  It contains files that can run; review them before the model does:\n`);
    for (const script of skill.scripts) io.out(`    ${script}\n`);
  }
  if (skill.skippedLinks.length > 0) io.out(`  Symlinks not copied: ${skill.skippedLinks.join(", ")}\n`);
}

async function reported(io: Io, work: () => Promise<void>): Promise<number> {
  try {
    await work();
    return 0;
  } catch (error) {
    if (error instanceof InstallError && error.usage) throw new UsageError(error.message);
    io.err(`hx: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
