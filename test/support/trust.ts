// Records a folder as trusted in a test's HOME, the way `hx trust DIR` does: for tests whose
// commands have no --trust flag (hx mcp list, hx skills list) or that check recorded trust.
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";

export function trustFolder(home: string, ...folders: string[]): void {
  mkdirSync(path.join(home, ".hx"), { recursive: true });
  const entries = Object.fromEntries(folders.map((folder) => [realpathSync(folder), { trustedAt: "test" }]));
  writeFileSync(
    path.join(home, ".hx", "trusted-folders.json"),
    JSON.stringify({ version: 1, folders: entries }),
    {
      mode: 0o600,
    },
  );
}
