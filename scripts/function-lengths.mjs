// `npm run check` step: fails when a function in src/ is longer than MAX_LINES lines. A long
// function is read in pieces and changed by guesswork; split it into named parts instead.
// Functions listed in ALLOWED (by name, with their length when listed) may be that long until
// they are split; the list only shrinks.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const MAX_LINES = 150;

/**
 * Function name → the lines it may have until it is split (its length when it was listed; the
 * name alone, so a function that moves to another file keeps its entry).
 * Issue 24 wants this empty; remove an entry when its function is split.
 * @type {Record<string, number>}
 */
const ALLOWED = {};

/** @typedef {{ file: string, name: string, line: number, lines: number }} LongFunction */

const root = fileURLToPath(new URL("..", import.meta.url));

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** A readable name: the function's own, or the variable, property or class member it is assigned to. */
/** @param {ts.Node} node @returns {string} */
function nameOf(node) {
  const named = /** @type {ts.Node & { name?: ts.Node }} */ (node);
  if (named.name && (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name))) {
    const own = named.name.text;
    const owner =
      node.parent && ts.isClassLike(node.parent) && node.parent.name ? `${node.parent.name.text}.` : "";
    return owner + own;
  }
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    ts.isIdentifier(parent.name)
  )
    return parent.name.text;
  return "(anonymous)";
}

/** @param {string} file @returns {LongFunction[]} */
function longFunctions(file) {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  /** @type {LongFunction[]} */
  const found = [];
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_LINES)
        found.push({ file: path.relative(root, file), name: nameOf(node), line: start + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const found = sourceFiles(path.join(root, "src")).flatMap(longFunctions);
const failures = found.filter((f) => {
  const allowed = ALLOWED[f.name];
  return allowed === undefined || f.lines > allowed;
});
const stale = Object.keys(ALLOWED).filter((key) => !found.some((f) => f.name === key));
for (const f of failures)
  console.error(
    `${f.file}:${f.line} ${f.name} is ${f.lines} lines (at most ${MAX_LINES}): split it into named parts.`,
  );
for (const key of stale)
  console.error(`${key} is in ALLOWED in scripts/function-lengths.mjs but no longer too long: remove it.`);
if (failures.length > 0 || stale.length > 0) process.exit(1);
