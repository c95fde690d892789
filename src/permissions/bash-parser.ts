import { createRequire } from "node:module";
import type { Node, Parser } from "web-tree-sitter";
import { setV8Flags } from "../process/v8-flags.js";

export type SyntaxNode = Node;

/** A loaded bash grammar: turns a command line into a syntax tree (synchronous once loaded). */
export interface BashParser {
  /**
   * Parses `text` and hands the tree's root to `read`, which must turn it into plain data:
   * the tree is freed when `read` returns. `undefined` when the line is too long to parse.
   */
  parse<T>(text: string, read: (root: SyntaxNode) => T): T | undefined;
}

/** Lines longer than this are not parsed (and so never allowed by a rule). */
const MAX_PARSED_CHARS = 100_000;

/**
 * Loads `web-tree-sitter` and the `tree-sitter-bash` grammar (both WebAssembly) on first use:
 * `hx --version` and runs that never check a command do not pay for it. The .wasm files are
 * found through Node's resolution at run time, so this works from the source, the esbuild
 * bundle in dist/ and an installed package alike. One loader per session (no module state).
 */
export function createBashParserLoader(): () => Promise<BashParser> {
  let loading: Promise<BashParser> | undefined;
  return () => {
    loading ??= loadBashParser().catch((error: unknown) => {
      loading = undefined;
      throw new Error(
        `could not load the bash parser (web-tree-sitter, tree-sitter-bash): ${error instanceof Error ? error.message : String(error)}. Reinstall hx (npm ci).`,
      );
    });
    return loading;
  };
}

async function loadBashParser(): Promise<BashParser> {
  const require = createRequire(import.meta.url);
  // V8's optimising WebAssembly tier would compile the 1.3 MB grammar on background threads
  // for ~0.5 s of CPU per process; the baseline compiler alone loads it in ~20 ms and parses a
  // command line in ~30 µs. hx runs no other WebAssembly.
  setV8Flags("--liftoff-only");
  const { Parser, Language } = await import("web-tree-sitter");
  await Parser.init({ locateFile: () => require.resolve("web-tree-sitter/tree-sitter.wasm") });
  const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  const parser: Parser = new Parser();
  parser.setLanguage(language);
  return {
    parse(text, read) {
      if (text.length > MAX_PARSED_CHARS) return undefined;
      const tree = parser.parse(text);
      if (!tree) return undefined;
      try {
        return read(tree.rootNode);
      } finally {
        tree.delete();
      }
    },
  };
}
