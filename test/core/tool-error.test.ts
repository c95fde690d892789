import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ToolError, toolError, toolErrorText } from "../../src/core/tool.js";

const SRC = path.resolve(import.meta.dirname, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

describe("model-facing errors", () => {
  it("are made one way: ToolError, toolError and toolErrorText give the same text", () => {
    expect(new ToolError("file not found: x.").message).toBe("Error: file not found: x.");
    expect(toolError("file not found: x.")).toEqual({ content: "Error: file not found: x.", isError: true });
    expect(toolErrorText("file not found: x.")).toBe("Error: file not found: x.");
  });

  it("never write the `Error: ` prefix by hand in src/ (only src/core/tool.ts does)", () => {
    const handWritten = sourceFiles(SRC)
      .filter((file) => path.relative(SRC, file) !== path.join("core", "tool.ts"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, i) =>
            /["'`]Error: /.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [],
          ),
      );
    expect(handWritten).toEqual([]);
  });
});
