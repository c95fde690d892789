import { yamlLibrary } from "./yaml-library.js";

/**
 * What the reference validator's YAML reader (strictyaml) refuses although YAML allows it:
 * flow collections (`[a, b]`, `{a: b}`) and anchors or aliases (`&n`, `*n`). Undefined when
 * the text has none. Only `hx skills validate --strict` asks.
 */
export function strictYamlProblem(yaml: string): string | undefined {
  const { isAlias, isCollection, isScalar, parseDocument, visit } = yamlLibrary();
  const doc = parseDocument(yaml, { schema: "failsafe", logLevel: "silent" });
  let problem: string | undefined;
  visit(doc, (_key, node) => {
    if (isAlias(node)) problem = `alias *${node.source} (strict YAML has no anchors or aliases)`;
    else if ((isScalar(node) || isCollection(node)) && node.anchor)
      problem = `anchor &${node.anchor} (strict YAML has no anchors or aliases)`;
    else if (isCollection(node) && node.flow)
      problem =
        "flow collection such as [a, b] or {a: b} (strict YAML allows block style only; quote the text or use '- item' lines)";
    return problem ? visit.BREAK : undefined;
  });
  return problem;
}
