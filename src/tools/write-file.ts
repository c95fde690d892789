import { builtSchema } from "./built-schemas.js";
import { absolutePath, succeeded, text } from "./claude-shape.js";
import { previewWrite } from "./file-change.js";
import { writeForTool } from "./file-write.js";
import { defineTool, type Zod } from "./tool.js";
import { pathRuleSubject } from "./workspace.js";

export const writeFileParameters = (z: Zod) =>
  z.object({
    path: z.string().min(1),
    content: z.string(),
  });

export const writeFileTool = defineTool({
  name: "write_file",
  description: "Creates or overwrites a whole file (and missing folders). To change part, use edit_file.",
  parameters: writeFileParameters,
  jsonSchema: builtSchema("write_file"),
  effect: "write",
  ruleSubject: (args, workspace) => pathRuleSubject(args.path, workspace),
  preview: (args, workspace) => previewWrite(workspace, args.path, args.content),
  claude: {
    name: "Write",
    input: (args, workspace) => ({ file_path: absolutePath(workspace, args.path), content: args.content }),
    args: (input) => ({ path: text(input, "file_path"), content: text(input, "content") }),
    response: (args, output, workspace) => ({
      filePath: absolutePath(workspace, args.path),
      content: args.content,
      success: succeeded(output),
    }),
  },
  async execute(args, ctx) {
    const file = ctx.workspace.resolveForWrite(args.path);
    const shown = ctx.workspace.relative(file);
    const { created } = await writeForTool(ctx.workspace, file, shown, args.content);
    const bytes = Buffer.byteLength(args.content, "utf8");
    return `${created ? "Created" : "Overwrote"} ${shown} (${bytes} bytes, ${plural(countLines(args.content), "line")}).`;
  },
});

/** Lines as an editor counts them: a trailing newline does not start another line. */
export function countLines(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
