import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import type { Theme } from "./theme.js";

const LANGUAGES = {
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  ruby,
  rust,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** A code block's lines with ANSI colours, or undefined when its language is unknown (drawn plain). */
export type Highlighter = (code: string, lang?: string) => string[] | undefined;

/**
 * Syntax highlighting for code blocks (highlight.js, loaded after the first draw): the language
 * named after the fence, or none. Its HTML is turned into the theme's colours; the code itself
 * was neutralised before it got here.
 */
export function createHighlighter(theme: Theme): Highlighter {
  const { c: colors } = theme;
  const styles: Record<string, (text: string) => string> = {
    keyword: colors.magenta,
    built_in: colors.cyan,
    type: colors.cyan,
    literal: colors.yellow,
    number: colors.yellow,
    string: colors.green,
    regexp: colors.red,
    comment: colors.dim,
    meta: colors.dim,
    title: colors.blue,
    "title.function": colors.blue,
    "title.class": colors.cyan,
    attr: colors.yellow,
    attribute: colors.yellow,
    variable: colors.red,
    params: (t) => t,
    addition: colors.green,
    deletion: colors.red,
    tag: colors.red,
    name: colors.red,
    symbol: colors.yellow,
    section: colors.bold,
    bullet: colors.cyan,
  };
  return (code, lang) => {
    const language = lang?.trim().toLowerCase();
    if (!language || !hljs.getLanguage(language)) return undefined;
    const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
    return htmlToAnsi(html, styles).split("\n");
  };
}

/** highlight.js HTML (`<span class="hljs-keyword">if</span>`, entities) to styled text, line by line. */
function htmlToAnsi(html: string, styles: Record<string, (text: string) => string>): string {
  const stack: Array<(text: string) => string> = [];
  let out = "";
  for (const part of html.split(/(<span class="[^"]*">|<\/span>)/)) {
    if (part.startsWith("<span")) {
      const scope = /class="hljs-([^" ]+)/.exec(part)?.[1] ?? "";
      stack.push(styles[scope] ?? styles[scope.split(".")[0] ?? ""] ?? ((t) => t));
    } else if (part === "</span>") {
      stack.pop();
    } else if (part) {
      const text = decodeEntities(part);
      const style = stack.at(-1) ?? ((t: string) => t);
      // Style each line apart, so a line break never carries a colour into the next line.
      out += text
        .split("\n")
        .map((line) => (line ? style(line) : line))
        .join("\n");
    }
  }
  return out;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");
}
