// kenryu42's cc-safety-net, a published Claude Code guard (npm `cc-safety-net`, MIT), installed
// as a devDependency: its hook answers with a JSON permissionDecision. `safetyNetPlugin()` lays
// it out as a Claude Code plugin folder (manifest and hooks.json written here, in the plugin
// format Claude Code documents), the way its repository ships it.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./run-hx.js";
import { tempDir } from "./temp-dir.js";

export const SAFETY_NET_PACKAGE = path.join(REPO_ROOT, "node_modules", "cc-safety-net");
export const SAFETY_NET_BIN = path.join(SAFETY_NET_PACKAGE, "dist", "bin", "cc-safety-net.js");
export const SAFETY_NET_VERSION: string = JSON.parse(
  readFileSync(path.join(SAFETY_NET_PACKAGE, "package.json"), "utf8"),
).version;

/** A plugin folder (`.claude-plugin/plugin.json`, `hooks/hooks.json`, the package's `dist/`). */
export function safetyNetPlugin(): string {
  const root = tempDir("hx-safety-net-plugin-");
  mkdirSync(path.join(root, ".claude-plugin"), { recursive: true });
  mkdirSync(path.join(root, "hooks"), { recursive: true });
  cpSync(path.join(SAFETY_NET_PACKAGE, "dist"), path.join(root, "dist"), { recursive: true });
  cpSync(path.join(SAFETY_NET_PACKAGE, "LICENSE"), path.join(root, "LICENSE"));
  writeFileSync(
    path.join(root, ".claude-plugin", "plugin.json"),
    JSON.stringify({
      name: "safety-net",
      version: SAFETY_NET_VERSION,
      description: "Blocks destructive git and filesystem commands before they run",
      license: "MIT",
    }),
  );
  writeFileSync(
    path.join(root, ".claude-plugin", "marketplace.json"),
    JSON.stringify({
      name: "safety-net-dev",
      owner: { name: "test" },
      plugins: [{ name: "safety-net", source: "./", description: "Blocks destructive commands" }],
    }),
  );
  writeFileSync(
    path.join(root, "hooks", "hooks.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              {
                type: "command",
                // biome-ignore lint/suspicious/noTemplateCurlyInString: the plugin's own variable
                command: 'node "${CLAUDE_PLUGIN_ROOT}/dist/bin/cc-safety-net.js" --claude-code',
              },
            ],
          },
        ],
      },
    }),
  );
  return root;
}

/**
 * Whether `jq` is installed: the Claude Code-style guards read their payload with it, as most
 * published ones do. `.ci/run` installs it; elsewhere their tests skip and say why.
 */
export const HAS_JQ: boolean = (() => {
  const found = spawnSync("jq", ["--version"], { stdio: "ignore" }).status === 0;
  if (!found) console.warn("skipped: the Claude Code guard tests need jq (apt-get install jq)");
  return found;
})();
