/**
 * Import rules checked by `npm run check` (dependency-cruiser, reported by
 * scripts/import-report.mjs).
 *
 * The folders of src/ stand in layers, lowest first. A folder imports folders of its own layer
 * or of lower ones, never of a higher one (`layer-*` rules), and no two folders import each
 * other, even through others (the report's folder-cycle check). A new folder of src/ gets a
 * place here (`unranked-folder` fails until it has one). The picture is in AGENTS.md.
 *
 * No import breaks these rules; keep it so (no known-violations list: a new upward import is
 * fixed by moving the shared piece down, or by passing it in from above).
 */
const { heavyModules } = require("./scripts/heavy-modules.cjs");

const LAYERS = [
  // The contracts every layer shares, and text and file helpers with no hx knowledge.
  ["ground", ["core", "text", "fs"]],
  // Generic machinery: settings files (found, read, layered; no feature's keys), processes, secrets.
  ["base", ["config", "process", "secrets"]],
  // What the loop drives: the tool registry and tools, the providers, the sandbox, transcripts.
  ["mechanisms", ["sandbox", "tools", "providers", "transcript"]],
  // The loop and its extension points.
  ["loop", ["agent"]],
  // The harness around the loop: each owns its tools, extensions and settings fragment.
  [
    "features",
    [
      "context",
      "skills",
      "permissions",
      "hooks",
      "mcp",
      "subagent",
      "todo",
      "tasks",
      "background",
      "checkpoints",
      "worktrees",
      "plan",
      "guards",
      "shell",
      "instructions",
      "budget",
      "output-schema",
    ],
  ],
  // The settings schema composed from the features' fragments, and what reads it whole.
  ["composition", ["settings", "trust", "plugins"]],
  // The composition root: one capability after another.
  ["session", ["session"]],
  ["cli", ["cli"]],
];

/**
 * Folders imported through their index.ts only (or a sub-folder's, e.g. skills/install/index.ts):
 * the index says what the folder offers others (export what other folders use, nothing more;
 * knip fails on an export nobody imports). Inside a folder, files import each other directly.
 * Two exceptions keep start-up lean, because loading an index loads every module it re-exports:
 * a lazy `import()` may name the module it loads, and a heavy module (one that loads zod, yaml
 * or an SDK at its top, scripts/heavy-modules.cjs) is imported by its own path and never
 * re-exported by an index. Open folders (imported file by file): the ground and base floors,
 * tools, providers, the loop, the session and the CLI: each of their files is one contract,
 * tool, provider or helper, imported by name, and an index there would be the whole floor.
 */
const CLOSED_FOLDERS = [
  "sandbox",
  "transcript",
  ...LAYERS.find(([layer]) => layer === "features")[1],
  ...LAYERS.find(([layer]) => layer === "composition")[1],
];

const HEAVY_MODULES = heavyModules();
const exactly = (paths) => `^(${paths.map((p) => p.replace(/[.]/g, "\\.")).join("|")})$`;

const folders = (names) => `^src/(${names.join("|")})/`;
const layerRules = LAYERS.slice(0, -1).map(([layer, names], index) => ({
  name: `layer-${layer}`,
  severity: "error",
  comment: `A ${layer} folder (${names.join(", ")}) imports only its own layer or lower ones (see AGENTS.md, Layers).`,
  from: { path: folders(names) },
  to: { path: folders(LAYERS.slice(index + 1).flatMap(([, higher]) => higher)) },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules import one way (cli → session → agent → providers/tools); a cycle means a layer reaches back.",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "through-index",
      severity: "error",
      comment: `Another folder's module is imported through its index.ts (${CLOSED_FOLDERS.join(", ")}); add the name to that index (see AGENTS.md, Imports).`,
      from: { path: "^src/([^/]+)/" },
      to: {
        path: folders(CLOSED_FOLDERS),
        // A feature's capability.ts is what the session (the composition root) builds it with.
        pathNot: ["^src/$1/", "/index\\.ts$", "/capability\\.ts$", exactly(HEAVY_MODULES)],
        dependencyTypesNot: ["dynamic-import"],
      },
    },
    {
      name: "light-index",
      severity: "error",
      comment: "An index.ts never re-exports a heavy module (scripts/heavy-modules.cjs): every importer of the index would load it at start-up. Import it by its path, lazily where it can wait.",
      from: { path: "/index\\.ts$" },
      to: { path: exactly(HEAVY_MODULES), dependencyTypesNot: ["dynamic-import", "type-only"] },
    },
    {
      name: "unranked-folder",
      severity: "error",
      comment: "Every folder of src/ has a layer in .dependency-cruiser.cjs (LAYERS).",
      from: { path: "^src/", pathNot: folders(LAYERS.flatMap(([, names]) => names)) },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Type-only imports count: a cycle of types is still a cycle between layers.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
