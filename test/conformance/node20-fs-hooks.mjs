// Resolve hook for node20-fs-shim.mjs: only the conformance bundle's `fs` is redirected.
const SHIM = "hx-conformance:fs";

export async function resolve(specifier, context, next) {
  if (specifier === SHIM) return { url: SHIM, shortCircuit: true };
  if (
    (specifier === "fs" || specifier === "node:fs") &&
    context.parentURL?.includes("/@modelcontextprotocol/conformance/")
  ) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url !== SHIM) return next(url, context);
  return {
    format: "module",
    shortCircuit: true,
    source: `import fs from "node:fs";
export * from "node:fs";
export default fs;
export const globSync = fs.globSync ?? (() => { throw new Error("tier-check needs Node 22 (fs.globSync)"); });
`,
  };
}
