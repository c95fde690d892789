// `hx skills add|update|remove`: loaded only when one of them runs.
import { findProjectRoot } from "../fs/project-root.js";
import {
  addSkills,
  InstallError,
  type InstalledSkill,
  installTarget,
  removeSkill,
  resolveSource,
  updateSkills,
} from "../skills/install/index.js";
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
  flags: InstallFlags & { skill?: string[]; ref?: string; useName?: boolean },
  io: Io,
): Promise<number> {
  const target = targetOf(flags);
  const spec = resolveSource(source, flags.cwd);
  if (!spec) {
    throw new UsageError(
      `'${source}' is not a folder, a git URL or owner/repo (e.g. ./my-skills, https://host/repo.git, anthropics/skills)`,
    );
  }
  return reported(io, async () => {
    const result = await addSkills({
      spec,
      source,
      target,
      names: flags.skill,
      ref: flags.ref,
      useName: flags.useName,
    });
    for (const skill of result.installed) describe("Installed", skill, io);
    for (const refused of result.refused)
      io.err(`hx: ${refused.name} is not a valid skill, not installed:\n  ${refused.reasons.join("\n  ")}\n`);
    if (result.installed.length > 0) io.out(`Recorded in ${target.lockFile}\n`);
    if (result.refused.length > 0) {
      const total = result.installed.length + result.refused.length;
      throw new InstallError(`installed ${result.installed.length} of ${total} skills from ${source}`);
    }
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
    for (const refused of result.refused) io.err(`hx: ${refused.reason}\n`);
    if (result.refused.length > 0) throw new InstallError(`${result.refused.length} skill(s) not updated`);
  });
}

export async function runRemove(name: string, flags: InstallFlags, io: Io): Promise<number> {
  const target = targetOf(flags);
  return reported(io, async () => {
    const removed = await removeSkill({ target, name });
    if (removed.length === 0)
      io.out(`Removed ${name}'s entry in ${target.lockFile} (no installed copy was found)\n`);
    else io.out(`Removed ${name} (${removed.join(", ")}) and its entry in ${target.lockFile}\n`);
  });
}

function describe(verb: string, skill: InstalledSkill, io: Io): void {
  const ref = skill.entry.commit ? ` at ${skill.entry.commit.slice(0, 12)}` : "";
  const was =
    skill.previousRef && skill.previousRef !== skill.entry.commit
      ? ` (was ${skill.previousRef.slice(0, 12)})`
      : "";
  io.out(
    `${verb} ${skill.name} from ${skill.entry.sourceUrl ?? skill.entry.source}${ref}${was} into ${skill.dir}\n`,
  );
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
