import { createRequire } from "node:module";

type YamlLibrary = typeof import("yaml");

/**
 * The `yaml` package, loaded on first use: the fast frontmatter parser (simple-yaml.ts) reads
 * every skill of the published corpus, so most runs never need the full library, and a static
 * import would cost every start (~10 ms). A synchronous require keeps skill parsing
 * synchronous; Node caches the module after the first call.
 */
export function yamlLibrary(): YamlLibrary {
  return createRequire(import.meta.url)("yaml") as YamlLibrary;
}
