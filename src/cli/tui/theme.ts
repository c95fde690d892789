import type { EditorTheme } from "@mariozechner/pi-tui/dist/components/editor.js";
import type { MarkdownTheme } from "@mariozechner/pi-tui/dist/components/markdown.js";
import pc from "picocolors";
import type { DiffStyle } from "../diff-view.js";

/** hx's colours; all of them plain text under NO_COLOR (picocolors reads it). */
export function createTheme(enabled: boolean = pc.isColorSupported) {
  const c = pc.createColors(enabled);
  // Set once the highlighter has loaded (after the first draw); code blocks are plain until then.
  let highlight: ((code: string, lang?: string) => string[] | undefined) | undefined;
  const markdown: MarkdownTheme = {
    heading: (t) => c.bold(c.cyan(t)),
    link: (t) => c.underline(c.blue(t)),
    linkUrl: (t) => c.dim(t),
    code: (t) => c.yellow(t),
    codeBlock: (t) => t,
    codeBlockBorder: (t) => c.dim(t),
    quote: (t) => c.italic(t),
    quoteBorder: (t) => c.dim(t),
    hr: (t) => c.dim(t),
    listBullet: (t) => c.cyan(t),
    bold: (t) => c.bold(t),
    italic: (t) => c.italic(t),
    strikethrough: (t) => c.strikethrough(t),
    underline: (t) => c.underline(t),
    highlightCode: (code, lang) => highlight?.(code, lang) ?? code.split("\n"),
  };
  const editor: EditorTheme = {
    borderColor: (t) => c.dim(t),
    selectList: {
      selectedPrefix: (t) => c.cyan(t),
      selectedText: (t) => c.bold(t),
      description: (t) => c.dim(t),
      scrollInfo: (t) => c.dim(t),
      noMatch: (t) => c.dim(t),
    },
  };
  const diff: DiffStyle = { added: c.green, removed: c.red, context: c.dim, header: c.cyan };
  return {
    c,
    markdown,
    setHighlighter(next: (code: string, lang?: string) => string[] | undefined) {
      highlight = next;
    },
    editor,
    diff,
    user: (t: string) => c.bold(t),
    reasoning: (t: string) => c.dim(c.italic(t)),
    tool: (t: string) => c.cyan(t),
    muted: (t: string) => c.dim(t),
    warn: (t: string) => c.yellow(t),
    error: (t: string) => c.red(t),
    accent: (t: string) => c.magenta(t),
  };
}

export type Theme = ReturnType<typeof createTheme>;
