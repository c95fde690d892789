import { stat } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "../core/tool.js";
import { expandBraces } from "../fs/brace-expansion.js";
import { builtSchema } from "./built-schemas.js";
import { absolutePath, defined, text } from "./claude-shape.js";
import { defineTool, type Zod } from "./tool.js";
import { truncate } from "./truncate.js";
import { isInside, pathRuleSubject, realPathOf } from "./workspace.js";

const MAX_FILES = 1000;
const MAX_OUTPUT_CHARS = 50_000;
/** Skipped everywhere, whatever .gitignore says. */
const ALWAYS_SKIPPED = ["**/.git/**", "**/node_modules/**"];

export const globParameters = (z: Zod) =>
  z.object({
    pattern: z.string().min(1).describe('e.g. "**/*.ts"'),
    path: z.string().optional().describe("Folder (default: workspace root)"),
  });

export const globTool = defineTool({
  name: "glob",
  description:
    `Lists files matching a glob pattern, sorted by path, at most ${MAX_FILES}. ` +
    "Skips .git, node_modules and .gitignore'd files.",
  parameters: globParameters,
  jsonSchema: builtSchema("glob"),
  effect: "read",
  ruleSubject: (args, workspace) => pathRuleSubject(args.path ?? ".", workspace),
  claude: {
    name: "Glob",
    input: (args, workspace) =>
      defined({ pattern: args.pattern, path: args.path && absolutePath(workspace, args.path) }),
    args: (input) => defined({ pattern: text(input, "pattern"), path: text(input, "path") }),
    response: (_args, output) => {
      const filenames = output.isError ? [] : output.content.split("\n").filter((line) => line.trim() !== "");
      return { filenames, numFiles: filenames.length, truncated: false };
    },
  },
  async execute(args, ctx) {
    const dir = ctx.workspace.resolveForRead(args.path ?? ".");
    const shownDir = ctx.workspace.relative(dir);
    const info = await stat(dir).catch(() => undefined);
    if (!info) throw new ToolError(`folder not found: ${shownDir}.`);
    if (!info.isDirectory())
      throw new ToolError(`${shownDir} is a file, not a folder; set path to a folder.`);
    if (leavesFolder(args.pattern)) {
      throw new ToolError(
        "the pattern must be relative and must not contain '..' (braces included); use path to choose the folder.",
      );
    }

    // Loaded on the first glob, not at start-up.
    const [{ glob }, { GitignoreFilter }] = await Promise.all([
      import("tinyglobby"),
      import("./gitignore.js"),
    ]);
    const found = await glob(args.pattern, {
      cwd: dir,
      absolute: true,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      expandDirectories: false,
      ignore: ALWAYS_SKIPPED,
      signal: ctx.signal,
    });
    const gitRoot = isInside(dir, ctx.workspace.root) ? ctx.workspace.root : dir;
    const gitignore = new GitignoreFilter(gitRoot);
    const files = found
      .map((file) => path.resolve(file))
      // Whatever the pattern, only files below the folder, and none a read_file deny rule hides.
      .filter((file) => isInside(file, dir) && !ctx.workspace.isHiddenFromReads(realPathOf(file)))
      .filter((file) => !gitignore.ignores(file))
      .map((file) => ctx.workspace.relative(file))
      .sort(byCodePoint);
    if (files.length === 0) {
      return `No files match "${args.pattern}" in ${shownDir === "." ? "the workspace root" : shownDir}.`;
    }
    return truncate(files.join("\n"), {
      maxChars: MAX_OUTPUT_CHARS,
      maxLines: MAX_FILES,
      keep: "head",
      unit: "files",
      nextStep: "Use a narrower pattern or set path to a subfolder to see them.",
    }).text;
  },
});

/** True when some expansion of the pattern is absolute or has a `..` segment. */
function leavesFolder(pattern: string): boolean {
  return expandBraces(pattern).some(
    (expanded) =>
      path.isAbsolute(expanded) || /^[A-Za-z]:/.test(expanded) || expanded.split(/[/\\]/).includes(".."),
  );
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
