import { Markdown } from "@mariozechner/pi-tui/dist/components/markdown.js";
import type { Theme } from "./theme.js";
import type { MarkdownFactory } from "./transcript-view.js";

/** Answers as markdown (pi-tui's renderer over marked): headings, lists, emphasis, code, tables. */
export function markdownFactory(theme: Theme): MarkdownFactory {
  return (text) => new Markdown(text, 0, 0, theme.markdown);
}
