import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Adds an allow rule to a settings file (the project's `.hx/settings.local.json` for
 * "always" answers), keeping everything else in it. Creates the file and its folder when
 * missing; refuses to overwrite a file that is not valid JSON.
 */
export async function addAllowRule(file: string, rule: string): Promise<void> {
  let settings: Record<string, unknown> = {};
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text !== undefined && text.trim() !== "") {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new Error(`${file} does not hold a JSON object; the rule ${rule} was not saved.`);
    }
    settings = parsed as Record<string, unknown>;
  }
  const permissions = isObject(settings.permissions) ? { ...settings.permissions } : {};
  const allow = Array.isArray(permissions.allow) ? [...permissions.allow] : [];
  if (!allow.includes(rule)) allow.push(rule);
  permissions.allow = allow;
  settings.permissions = permissions;

  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, "utf8");
  await rename(temporary, file);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
