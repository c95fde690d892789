/**
 * dependency-cruiser reporter for `npm run check` (`depcruise ... -T plugin:scripts/import-report.mjs`):
 * prints the rule violations, and checks that no two folders of src/ import each other,
 * directly or through others. An import run with `--ignore-known <file>` sets aside is left out
 * of the folder graph too. Exit code: the number of problems.
 */

/** The folder of src/ a module is in, or undefined outside src/<folder>/. */
function folderOf(path) {
  return /^src\/([^/]+)\//.exec(path)?.[1];
}

/** The folder graph: folder → folder → one module import that makes the edge. */
function folderGraph(modules) {
  const graph = new Map();
  for (const module of modules) {
    const from = folderOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (!to || to === from) continue;
      const known = !dependency.valid && dependency.rules.every((rule) => rule.severity === "ignore");
      if (known) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, `${module.source} → ${dependency.resolved}`);
    }
  }
  return graph;
}

/** Strongly connected components with more than one folder (Tarjan). */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node)?.keys() ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

export default function importReport(result) {
  const lines = [];
  let problems = 0;
  let known = 0;
  for (const violation of result.summary.violations) {
    if (violation.rule.severity === "ignore") {
      known += 1;
      continue;
    }
    if (violation.rule.severity === "error") problems += 1;
    const where = violation.cycle?.length
      ? [violation.from, ...violation.cycle.map((step) => step.name ?? step)].join(" → ")
      : `${violation.from} → ${violation.to}`;
    lines.push(`  ${violation.rule.severity} ${violation.rule.name}: ${where}`);
  }
  const graph = folderGraph(result.modules);
  for (const component of cycles(graph)) {
    problems += 1;
    const members = new Set(component);
    const edges = component.flatMap((from) =>
      [...(graph.get(from) ?? [])]
        .filter(([to]) => members.has(to))
        .map(([to, example]) => `      ${from} → ${to} (${example})`),
    );
    lines.push(`  error folder-cycle: ${component.join(", ")} import each other:`, ...edges);
  }
  const { totalCruised, totalDependenciesCruised } = result.summary;
  lines.push(
    "",
    `${problems === 0 ? "✔" : "✘"} imports: ${problems} problem(s)${known > 0 ? `, ${known} known and set aside` : ""}; ${totalCruised} modules, ${totalDependenciesCruised} imports.`,
    "",
  );
  if (problems > 0)
    lines.push(
      "A folder imports only its own layer or lower ones, another folder through its index.ts, and no two folders import each other (.dependency-cruiser.cjs, AGENTS.md).",
      "",
    );
  return { output: lines.join("\n"), exitCode: problems };
}
