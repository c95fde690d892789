/**
 * A fast path for the frontmatter most skills have: `key: value` lines, one level of nested
 * `key: value` mappings, and `|`/`>` block scalars without blank or more-indented lines. It
 * returns exactly what the `yaml` package returns with the failsafe schema for those inputs
 * (a property test checks this) and undefined for anything else, which then goes to `yaml`.
 * Discovery of 1,000 skills spends most of its time in YAML; this keeps it under budget.
 */
export function parseSimpleYaml(text: string): Record<string, unknown> | undefined {
  if (text.includes("\t") || text.includes("\r")) return undefined;
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const result: Record<string, unknown> = {};
  let i = 0;
  while (i < lines.length) {
    const match = KEY_LINE.exec(lines[i]);
    if (!match) return undefined;
    const [, key, rest] = match;
    if (Object.hasOwn(result, key)) return undefined;
    i += 1;
    if (rest === undefined || rest === "") {
      const nested: Record<string, string> = {};
      let count = 0;
      while (i < lines.length && lines[i].startsWith("  ")) {
        const inner = NESTED_LINE.exec(lines[i]);
        if (!inner || Object.hasOwn(nested, inner[1]) || !isSafePlain(inner[2])) return undefined;
        nested[inner[1]] = inner[2];
        count += 1;
        i += 1;
      }
      result[key] = count > 0 ? nested : "";
      continue;
    }
    const block = /^([|>])(-?)$/.exec(rest);
    if (block) {
      const content: string[] = [];
      let indent: string | undefined;
      while (i < lines.length && lines[i].startsWith(" ")) {
        const lineIndent = /^ +/.exec(lines[i])![0];
        indent ??= lineIndent;
        if (lineIndent !== indent || lines[i].endsWith(" ")) return undefined;
        content.push(lines[i].slice(indent.length));
        i += 1;
      }
      if (content.length === 0) return undefined;
      const joined = content.join(block[1] === "|" ? "\n" : " ");
      result[key] = block[2] === "-" ? joined : `${joined}\n`;
      continue;
    }
    if (!isSafePlain(rest)) return undefined;
    result[key] = rest;
  }
  return result;
}

const KEY_LINE = /^([A-Za-z][A-Za-z0-9_-]*):(?: (.*))?$/;
const NESTED_LINE = /^ {2}([A-Za-z][A-Za-z0-9_-]*): (.+)$/;

/** A plain scalar whose failsafe value is its own text: no indicators, comments or colons. */
function isSafePlain(value: string): boolean {
  if (value === "" || value !== value.trim()) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value)) return false;
  if (/: |:$| #|^---|^\.\.\./.test(value)) return false;
  return !/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(value);
}
