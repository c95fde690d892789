import { yamlLibrary } from "./yaml-library.js";

/**
 * What the reference validator's YAML reader (strictyaml) refuses although YAML allows it:
 * flow collections (`[a, b]`, `{a: b}`), anchors or aliases (`&n`, `*n`) and tags (`!!str`,
 * `!custom`). Undefined when the text has none. Only `hx skills validate --strict` asks.
 */
export function strictYamlProblem(yaml: string): string | undefined {
  const { isAlias, isCollection, isScalar, parseDocument, visit } = yamlLibrary();
  const doc = parseDocument(yaml, { schema: "failsafe", logLevel: "silent" });
  let problem: string | undefined;
  visit(doc, (_key, node) => {
    if (isAlias(node)) problem = `alias *${node.source} (strict YAML has no anchors or aliases)`;
    else if ((isScalar(node) || isCollection(node)) && node.anchor)
      problem = `anchor &${node.anchor} (strict YAML has no anchors or aliases)`;
    else if ((isScalar(node) || isCollection(node)) && node.tag)
      problem = `tag ${tagAsWritten(node.tag)} (strict YAML has no tags; write the value plainly or quote it)`;
    else if (isCollection(node) && node.flow)
      problem =
        "flow collection such as [a, b] or {a: b} (strict YAML allows block style only; quote the text or use '- item' lines)";
    return problem ? visit.BREAK : undefined;
  });
  return problem;
}

/** `tag:yaml.org,2002:str` → `!!str`; a local tag as written. */
function tagAsWritten(tag: string): string {
  const core = "tag:yaml.org,2002:";
  return tag.startsWith(core) ? `!!${tag.slice(core.length)}` : tag;
}
