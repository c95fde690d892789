// Lets the conformance suite (`@modelcontextprotocol/conformance`) start on Node 20: its bundle
// imports `fs.globSync` (Node 22) at the top for `tier-check`, which the client scenarios never
// call. Loaded with `node --import`; redirects the bundle's `fs` import to a module that adds a
// `globSync` that says what it needs.
import { register } from "node:module";

register(new URL("./node20-fs-hooks.mjs", import.meta.url));
