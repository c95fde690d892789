import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { ToolError } from "../core/tool.js";
import { builtSchema } from "./built-schemas.js";
import { absolutePath, defined, text } from "./claude-shape.js";
import { defineTool, type Zod } from "./tool.js";
import { truncate } from "./truncate.js";
import { isInside, pathRuleSubject, realPathOf } from "./workspace.js";

const MAX_MATCHES = 500;
const MAX_OUTPUT_CHARS = 50_000;
/** Longer matching lines are shown as a preview. */
const MAX_COLUMNS = 500;

export const grepParameters = (z: Zod) =>
  z.object({
    pattern: z.string().min(1).describe("Regex; escape ( [ { . * + ? to match them literally"),
    path: z.string().optional().describe("File or folder (default: workspace root)"),
    glob: z.string().optional().describe('Only matching files, e.g. "*.ts"'),
    ignore_case: z.boolean().optional(),
  });

export const grepTool = defineTool({
  name: "grep",
  description:
    `Searches file contents (ripgrep): "path:line:text" lines sorted by path, at most ${MAX_MATCHES}. ` +
    "Skips .git, node_modules, binary and .gitignore'd files.",
  parameters: grepParameters,
  jsonSchema: builtSchema("grep"),
  effect: "read",
  ruleSubject: (args, workspace) => pathRuleSubject(args.path ?? ".", workspace),
  claude: {
    name: "Grep",
    input: (args, workspace) =>
      defined({
        pattern: args.pattern,
        path: args.path && absolutePath(workspace, args.path),
        glob: args.glob,
        output_mode: "content",
        "-n": true,
        "-i": args.ignore_case,
      }),
    args: (input) =>
      defined({
        pattern: text(input, "pattern"),
        path: text(input, "path"),
        glob: text(input, "glob"),
        ignore_case: input["-i"],
      }),
    response: (_args, output) => ({ mode: "content", content: output.content }),
  },
  async execute(args, ctx) {
    const target = ctx.workspace.resolveForRead(args.path ?? ".");
    const shownTarget = ctx.workspace.relative(target);
    if (!(await stat(target).catch(() => undefined))) throw new ToolError(`path not found: ${shownTarget}.`);

    const { rgPath } = await import("@vscode/ripgrep");
    const rgArgs = [
      "--line-number",
      "--with-filename",
      // A NUL after each path, so the path of a match is known exactly (see keepLine).
      "--null",
      "--no-heading",
      "--color",
      "never",
      "--no-require-git",
      "--hidden",
      "--glob",
      "!.git",
      "--glob",
      "!node_modules",
      "--sort",
      "path",
      "--max-columns",
      String(MAX_COLUMNS),
      "--max-columns-preview",
    ];
    if (args.ignore_case) rgArgs.push("--ignore-case");
    if (args.glob) rgArgs.push("--glob", args.glob);
    // Relative to the workspace root (where rg runs) so results print as workspace paths.
    rgArgs.push("--regexp", args.pattern, "--", isInside(target, ctx.workspace.root) ? shownTarget : target);

    // Matches in files a read_file deny rule covers never reach the model.
    const keepLine = (line: string): string | undefined => {
      const nul = line.indexOf("\0");
      if (nul === -1) return line;
      const file = line.slice(0, nul);
      if (ctx.workspace.isHiddenFromReads(realPathOf(path.resolve(ctx.workspace.root, file))))
        return undefined;
      return `${file}:${line.slice(nul + 1)}`;
    };
    const run = await runRipgrep(rgPath, rgArgs, ctx.workspace.root, ctx.signal, keepLine);
    if (ctx.signal.aborted) throw new ToolError("the search was cancelled.");
    const matches = run.lines.map((line) => line.replace(/^\.\//, ""));
    if (run.exitCode === 1 || (matches.length === 0 && run.exitCode === 0)) return "No matches found.";
    if (matches.length === 0) {
      throw new ToolError(
        `ripgrep failed: ${run.stderr.trim() || `exit code ${run.exitCode}`}. ` +
          "If the pattern is meant literally, escape regex characters such as ( [ { . * + ? with a backslash.",
      );
    }
    const text = truncate(matches.join("\n"), {
      maxChars: MAX_OUTPUT_CHARS,
      maxLines: MAX_MATCHES,
      keep: "head",
      unit: "matches",
      alreadyCut: { chars: run.droppedChars, lines: run.droppedLines },
      nextStep: "Narrow the pattern, path or glob to see the rest.",
    }).text;
    const warnings =
      run.exitCode === 2 ? `\n[ripgrep reported errors: ${run.stderr.trim().slice(0, 500)}]` : "";
    return text + warnings;
  },
});

interface RipgrepRun {
  exitCode: number | null;
  /** The first MAX_MATCHES output lines; the rest are only counted. */
  lines: string[];
  droppedLines: number;
  droppedChars: number;
  stderr: string;
}

function runRipgrep(
  rgPath: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
  keepLine: (line: string) => string | undefined,
): Promise<RipgrepRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"], signal });
    const decoder = new StringDecoder("utf8");
    const run: RipgrepRun = { exitCode: null, lines: [], droppedLines: 0, droppedChars: 0, stderr: "" };
    let pending = "";
    const take = (raw: string) => {
      const line = keepLine(raw);
      if (line === undefined) return;
      if (run.lines.length < MAX_MATCHES) run.lines.push(line);
      else {
        run.droppedLines++;
        run.droppedChars += line.length + 1;
      }
    };
    child.stdout.on("data", (chunk: Buffer) => {
      const parts = (pending + decoder.write(chunk)).split("\n");
      pending = parts.pop() ?? "";
      for (const line of parts) take(line);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (run.stderr.length < 10_000) run.stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      if (signal.aborted) resolve(run);
      else reject(new ToolError(`could not run ripgrep: ${error.message}`));
    });
    child.on("close", (code) => {
      const rest = pending + decoder.end();
      if (rest) take(rest);
      run.exitCode = code;
      resolve(run);
    });
  });
}
