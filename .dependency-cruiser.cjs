/** Import rules checked by `npm run check` (dependency-cruiser). */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules import one way (cli → session → agent → providers/tools); a cycle means a layer reaches back.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Type-only imports count: a cycle of types is still a cycle between layers.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
