import { isJsonObject, updateJsonObjectFile } from "../fs/json-file.js";

/**
 * Adds an allow rule to a settings file (the project's `.hx/settings.local.json` for
 * "always" answers), keeping everything else in it. Creates the file and its folder when
 * missing; refuses to overwrite a file that is not valid JSON.
 */
export async function addAllowRule(file: string, rule: string): Promise<void> {
  await updateJsonObjectFile(file, (settings) => {
    const permissions = isJsonObject(settings.permissions) ? { ...settings.permissions } : {};
    const allow = Array.isArray(permissions.allow) ? [...permissions.allow] : [];
    if (!allow.includes(rule)) allow.push(rule);
    permissions.allow = allow;
    settings.permissions = permissions;
  });
}
