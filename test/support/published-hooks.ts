// Claude Code hooks published on npm, installed as pinned devDependencies and used from
// node_modules at test time (nothing of them is copied into this repository):
// - selfish-pipeline (jhlee0409, MIT): a Claude Code plugin (`.claude-plugin/plugin.json`,
//   `hooks/hooks.json`): a JSON-deciding Bash guard, an auto-formatter, a SessionStart context
//   hook and a Stop gate, all active while `.claude/.selfish-active` exists.
// - @coo-quack/sensitive-canary (MIT): a secrets guard; its `dist/` runs on Node 20 (its
//   `engines` says >=22.6 because its plugin's hooks.json runs the TypeScript sources with
//   `--experimental-strip-types`; the built JavaScript needs nothing newer).
// - block-no-verify (tupe12334, MIT): a Bash validator, exit 2 on `git commit --no-verify`.
// - claude-code-plugins (beyondkmp, MIT): settings files and hook scripts to copy into `.claude/`.
// - cc-dev-template (MIT): its project-setup skill's Stop hook template, `quality-gate.cjs`
//   (`decision: block` with the errors until `make build` passes, 3 attempts).
// - @domdhi/claude-code-tts (MIT): a Stop hook (Python) that reads the model's last answer
//   from `transcript_path` and sends it to its speech daemon.
// - claude-dev-environment-setup (Chaning Jang, MIT): ships its own project's
//   `.claude/settings.local.json`.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./run-hx.js";

const NODE_MODULES = path.join(REPO_ROOT, "node_modules");
const packageDir = (name: string) => path.join(NODE_MODULES, ...name.split("/"));

export const SELFISH = packageDir("selfish-pipeline");
export const SENSITIVE_CANARY = packageDir("@coo-quack/sensitive-canary");
export const BLOCK_NO_VERIFY_BIN = path.join(packageDir("block-no-verify"), "dist", "cli.js");
export const CLAUDE_CODE_PLUGINS = path.join(packageDir("claude-code-plugins"), "plugins");
export const CLAUDE_CODE_TTS = packageDir("@domdhi/claude-code-tts");
export const DEV_ENV_SETUP = packageDir("claude-dev-environment-setup");
export const QUALITY_GATE = path.join(
  packageDir("cc-dev-template"),
  "src",
  "skills",
  "project-setup",
  "templates",
  "quality-gate.cjs",
);
export const PRETTIER_BIN = path.join(NODE_MODULES, "prettier", "bin", "prettier.cjs");

/** A devDependency's version, as installed. */
export function versionOf(name: string): string {
  return JSON.parse(readFileSync(path.join(packageDir(name), "package.json"), "utf8")).version;
}

interface HookGroup {
  matcher?: string;
  hooks: Array<{ type: string; command?: string }>;
}

/**
 * The command hooks a published plugin's `hooks/hooks.json` has for `event`, as it ships them
 * (matcher, `async`, `timeout`), with `${CLAUDE_PLUGIN_ROOT}` pointing at the installed package:
 * what a user gets who copies them into their settings. `script` picks the ones naming it.
 */
export function pluginHooks(pluginRoot: string, event: string, script: string): HookGroup[] {
  const file = path.join(pluginRoot, "hooks", "hooks.json");
  const groups: HookGroup[] = JSON.parse(readFileSync(file, "utf8")).hooks[event] ?? [];
  const picked = groups
    .map((group) => ({
      ...group,
      hooks: group.hooks
        .filter((hook) => hook.type === "command" && hook.command?.includes(script))
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the plugin's own variable
        .map((hook) => ({ ...hook, command: hook.command?.replaceAll("${CLAUDE_PLUGIN_ROOT}", pluginRoot) })),
    }))
    .filter((group) => group.hooks.length > 0);
  if (picked.length === 0) throw new Error(`${file} has no ${event} hook running ${script}`);
  return picked;
}

/**
 * Whether `python3` is installed: claude-code-plugins' guards are Python scripts. `.ci/run`
 * has it; elsewhere their tests skip and say why.
 */
export const HAS_PYTHON: boolean = (() => {
  const found = spawnSync("python3", ["--version"], { stdio: "ignore" }).status === 0;
  if (!found) console.warn("skipped: the Python Claude Code guards need python3 (apt-get install python3)");
  return found;
})();

/** Whether `make` is installed: cc-dev-template's quality gate runs `make build`. */
export const HAS_MAKE: boolean = (() => {
  const found = spawnSync("make", ["--version"], { stdio: "ignore" }).status === 0;
  if (!found) console.warn("skipped: the quality-gate Stop hook test needs make (apt-get install make)");
  return found;
})();
