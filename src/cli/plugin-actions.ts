// `hx plugin add|list|approve|remove`: loaded only when one of them runs.
import path from "node:path";
import { createInterface } from "node:readline/promises";
import type { PluginManifest } from "../plugins/index.js";
import {
  addPlugin,
  approvePlugin,
  pluginsDir,
  readPluginManifest,
  readPluginsLock,
  removePlugin,
} from "../plugins/index.js";
import { computeSkillFolderHash, InstallError } from "../skills/install/index.js";

const out = (text: string) => process.stdout.write(text);
const err = (text: string) => process.stderr.write(text);

/** What a plugin brings, one line per kind: what the user approves. */
function partsOf(manifest: PluginManifest): string[] {
  const hooks = Object.entries(manifest.hooks ?? {}).flatMap(([event, groups]) =>
    (Array.isArray(groups) ? groups : []).flatMap((group: { hooks?: Array<{ command?: string }> }) =>
      (group?.hooks ?? []).map((hook) => `${event}: ${hook.command ?? "(not a command hook)"}`),
    ),
  );
  const servers = Object.keys(manifest.mcpServers ?? {});
  const name = (file: string) => path.basename(file, ".md");
  return [
    ...hooks.map((hook) => `hook ${hook}`),
    ...servers.map((server) => `MCP server ${server}`),
    ...manifest.skillDirs
      .filter((dir) => path.basename(dir) !== ".hx-commands")
      .map((dir) => `skills in ${path.basename(dir)}/`),
    ...(manifest.commandFiles.length
      ? [`commands: ${manifest.commandFiles.map((f) => `/${name(f)}`).join(", ")}`]
      : []),
    ...(manifest.agentFiles.length
      ? [`agents (not used by hx): ${manifest.agentFiles.map(name).join(", ")}`]
      : []),
  ];
}

async function reported(work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InstallError) {
      err(`hx: ${error.message}\n`);
      return error.usage ? 2 : 1;
    }
    throw error;
  }
}

export function addAction(
  source: string,
  options: { cwd: string; plugin?: string; ref?: string; yes?: boolean },
): Promise<number> {
  return reported(async () => {
    const added = await addPlugin({ source, cwd: options.cwd, plugin: options.plugin, ref: options.ref });
    const version = added.manifest.version ? ` ${added.manifest.version}` : "";
    out(`Installed plugin ${added.name}${version} in ${added.dir}\n`);
    for (const part of partsOf(added.manifest)) out(`  ${part}\n`);
    if (added.skippedLinks.length) out(`  not copied (symlinks): ${added.skippedLinks.join(", ")}\n`);
    const runs = Boolean(added.manifest.hooks || added.manifest.mcpServers);
    if (!runs || options.yes || (await confirm(`Let ${added.name}'s hooks and MCP servers run? [y/N] `))) {
      await approvePlugin(added.name);
      out(`Approved: ${added.name} is loaded from the next session on.\n`);
    } else {
      out(`Not approved: its hooks and servers do not run until you run hx plugin approve ${added.name}\n`);
    }
    return 0;
  });
}

/** A yes/no question on the terminal; no terminal: no. */
async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export function listAction(options: { json?: boolean }): Promise<number> {
  return reported(async () => {
    const dir = pluginsDir();
    const lock = readPluginsLock(dir);
    const rows = Object.entries(lock.plugins).map(([name, entry]) => {
      const root = path.join(dir, name);
      const read = readPluginManifest(root);
      const state = !entry.approved
        ? "not approved"
        : computeSkillFolderHash(root) === entry.approved.hash
          ? "approved"
          : "changed since approved";
      return { name, ...entry, state, parts: read.ok ? partsOf(read.manifest) : [read.error] };
    });
    if (options.json) {
      out(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    if (rows.length === 0) out(`No plugins installed (hx plugin add SOURCE).\n`);
    for (const row of rows) {
      out(`${row.name}${row.version ? ` ${row.version}` : ""}  ${row.state}  from ${row.source}\n`);
      for (const part of row.parts) out(`  ${part}\n`);
    }
    return 0;
  });
}

export function approveAction(name: string): Promise<number> {
  return reported(async () => {
    await approvePlugin(name);
    out(`Approved: ${name}'s hooks and MCP servers run from the next session on.\n`);
    return 0;
  });
}

export function removeAction(name: string): Promise<number> {
  return reported(async () => {
    await removePlugin(name);
    out(`Removed plugin ${name}.\n`);
    return 0;
  });
}
