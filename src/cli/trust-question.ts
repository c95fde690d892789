import path from "node:path";
import { userSettingsDir } from "../config/settings.js";
import type { PermissionAsker } from "../permissions/index.js";
import { discoverSkills, shellCommandsIn } from "../skills/index.js";
import { projectFileTrusted, recordTrust, type TrustedSettings, trustFile } from "../trust/index.js";

/** What trusting the folder would enable, one line each; empty when there is nothing to trust. */
function whatTrustEnables(settings: TrustedSettings, cwd: string): string[] {
  if (settings.trust.trusted) return [];
  const lines = settings.ignored.map(
    ({ file, ignored }) =>
      `  ${path.relative(cwd, file) || file}: ${ignored.map((i) => `${i.key} (${i.value})`).join(", ")}`,
  );
  const skills = discoverSkills({ cwd, extraPaths: settings.merged.skills?.paths }).skills.filter(
    (skill) => !skill.remote && !projectFileTrusted(skill.file, settings.trust),
  );
  for (const skill of skills) {
    const grants: string[] = [];
    if (skill.allowedTools.length > 0) grants.push(`allowed-tools ${skill.allowedTools.join(" ")}`);
    if (skill.hooks && Object.keys(skill.hooks).length > 0)
      grants.push(`hooks ${Object.keys(skill.hooks).join(", ")}`);
    const commands = shellCommandsIn(skill.body).length;
    if (commands > 0) grants.push(`${commands} !\`cmd\` line${commands === 1 ? "" : "s"}`);
    if (grants.length > 0)
      lines.push(`  skill ${skill.name}: ${grants.join("; ")} (${path.relative(cwd, skill.file)})`);
  }
  return lines;
}

/**
 * The interactive session's question at start, asked once when the folder is not trusted and
 * its project files would loosen something: `y` trusts it for this session, `a` records it
 * (as `hx trust` does), anything else (no, Ctrl-C, typed text) keeps them off. Returns whether to trust it now.
 */
export async function askFolderTrust(
  settings: TrustedSettings,
  cwd: string,
  ask: PermissionAsker,
  log: (line: string) => void,
): Promise<boolean> {
  const enables = whatTrustEnables(settings, cwd);
  if (enables.length === 0) return false;
  const { key } = settings.trust;
  log(`This folder (${key}) is not trusted. Its project files would loosen what hx does unasked:`);
  for (const line of enables) log(line);
  log(
    "Trust it only if you trust whoever wrote these files. [y]es for this session, [a]lways (remembered, as hx trust does), [n]o keeps them off (deny and ask rules still apply).",
  );
  const answer = await ask({
    tool: "trust",
    effect: "execute",
    rule: `this folder's settings and skills (${key})`,
    alwaysRules: [`hx trust ${key}`],
    reason: "a folder's project settings and skills loosen nothing until you trust it",
    signal: new AbortController().signal,
  });
  if (answer === "always") {
    try {
      await recordTrust(trustFile(userSettingsDir()), key);
      log(`Trusted ${key} (hx trust --revoke undoes it).`);
    } catch (error) {
      log(
        `warning: trust was not recorded (${(error as Error).message}); trusting ${key} for this session only.`,
      );
    }
  }
  // "No, and tell the model instead" is a no as well: there is no call to redirect.
  return answer === "yes" || answer === "always";
}
