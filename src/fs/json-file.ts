import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Changes a JSON settings-like file in place: reads the object (or `{}` when the file is
 * missing), lets `update` change it, and writes it back atomically (a temp file, then rename),
 * keeping every other key. Refuses to overwrite a file that does not hold a JSON object.
 */
export async function updateJsonObjectFile(
  file: string,
  update: (object: Record<string, unknown>) => void,
  options: { mode?: number } = {},
): Promise<void> {
  let object: Record<string, unknown> = {};
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text !== undefined && text.trim() !== "") {
    const parsed = JSON.parse(text) as unknown;
    if (!isJsonObject(parsed)) throw new Error(`${file} does not hold a JSON object; it was left unchanged.`);
    object = parsed;
  }
  update(object);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(object, null, 2)}\n`, {
    encoding: "utf8",
    mode: options.mode,
  });
  await rename(temporary, file);
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
