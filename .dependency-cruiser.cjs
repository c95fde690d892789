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
    ],
  ],
  // The settings schema composed from the features' fragments, and what reads it whole.
  ["composition", ["settings", "trust", "plugins"]],
  // The composition root: one capability after another.
  ["session", ["session"]],
  ["cli", ["cli"]],
];

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
