/**
 * A small, forgiving shell splitter for permission checks: it finds the simple commands in a
 * command line (split on `;`, `&&`, `||`, `|`, `&`, newlines and parentheses), removes quotes
 * from their words, notes output redirections, and lifts the text of `$(...)` and backtick
 * substitutions out as commands of their own. It never executes anything and never throws;
 * unbalanced quotes simply run to the end of the line.
 */

/** One simple command, e.g. `git push origin main` out of `make && git push origin main`. */
export interface SimpleCommand {
  /** The command's text as written (trimmed), for rule matching. */
  text: string;
  /** Its words with quotes removed, redirections left out. */
  words: string[];
  /** Targets of output redirections (`> file`, `>> file`, `&> file`). */
  writes: string[];
}

export function splitShellCommand(command: string): SimpleCommand[] {
  const found: SimpleCommand[] = [];
  collect(command, found, 0);
  return found;
}

const MAX_DEPTH = 8;

const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "zsh", "dash", "ksh", "fish"]);

/** The script run by `bash -c script`, `sh -c`, `eval ...` (name without its folder); undefined otherwise. */
export function innerScript(name: string, args: string[]): string | undefined {
  if (name === "eval") return args.join(" ");
  if (!SHELLS.has(name)) return undefined;
  const flag = args.findIndex((arg) => /^-[a-z]*c[a-z]*$/.test(arg));
  return flag === -1 ? undefined : args[flag + 1];
}

/** The simple commands of a line, plus those inside `bash -c '...'` / `eval` (for deny and ask rules). */
export function allCommandParts(command: string, depth = 0): SimpleCommand[] {
  const parts = splitShellCommand(command);
  if (depth >= 4) return parts;
  return parts.flatMap((part) => {
    const name = part.words[0]?.split("/").at(-1) ?? "";
    const inner = innerScript(name, part.words.slice(1));
    return inner === undefined ? [part] : [part, ...allCommandParts(inner, depth + 1)];
  });
}

function collect(command: string, found: SimpleCommand[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  let words: string[] = [];
  let writes: string[] = [];
  let word = "";
  let inWord = false;
  let start = 0;
  /** What the next word is: the target of an output or input redirection, or a plain word. */
  let redirect: "write" | "read" | undefined;

  const endWord = () => {
    if (!inWord) return;
    if (redirect === "write") writes.push(word);
    else if (redirect === undefined) words.push(word);
    redirect = undefined;
    word = "";
    inWord = false;
  };
  const endCommand = (end: number) => {
    endWord();
    const text = command.slice(start, end).trim();
    if (words.length > 0 || writes.length > 0) found.push({ text, words, writes });
    words = [];
    writes = [];
    redirect = undefined;
  };

  let i = 0;
  while (i < command.length) {
    const ch = command[i];
    if (ch === "\\" && i + 1 < command.length) {
      if (command[i + 1] !== "\n") {
        word += command[i + 1];
        inWord = true;
      }
      i += 2;
      continue;
    }
    if (ch === "'") {
      const close = command.indexOf("'", i + 1);
      const end = close === -1 ? command.length : close;
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (ch === '"') {
      i = readDoubleQuoted(
        command,
        i + 1,
        (text) => {
          word += text;
        },
        (inner) => collect(inner, found, depth + 1),
      );
      inWord = true;
      continue;
    }
    if (ch === "$" && command[i + 1] === "(") {
      const end = matchingParen(command, i + 2);
      collect(command.slice(i + 2, end), found, depth + 1);
      word += "$(...)";
      inWord = true;
      i = end + 1;
      continue;
    }
    if (ch === "`") {
      const close = command.indexOf("`", i + 1);
      const end = close === -1 ? command.length : close;
      collect(command.slice(i + 1, end), found, depth + 1);
      word += "$(...)";
      inWord = true;
      i = end + 1;
      continue;
    }
    if (ch === ";" || ch === "\n" || ch === "(" || ch === ")") {
      endCommand(i);
      i += 1;
      start = i;
      continue;
    }
    if (ch === "&" && command[i + 1] === ">") {
      endWord();
      redirect = "write";
      i += command[i + 2] === ">" ? 3 : 2;
      continue;
    }
    if (ch === "&" || ch === "|") {
      endCommand(i);
      const doubled = command[i + 1] === ch || (ch === "|" && command[i + 1] === "&");
      i += doubled ? 2 : 1;
      start = i;
      continue;
    }
    if (ch === ">") {
      // `2>` / `1>`: the digits were a file descriptor, not a word.
      if (inWord && /^\d+$/.test(word)) {
        word = "";
        inWord = false;
      }
      endWord();
      i += 1;
      if (command[i] === "&") {
        // `>&2`: duplicating a descriptor writes no file.
        i += 1;
        while (i < command.length && /\d/.test(command[i])) i += 1;
        continue;
      }
      if (command[i] === ">" || command[i] === "|") i += 1;
      redirect = "write";
      continue;
    }
    if (ch === "<") {
      // Input redirections read; the target is not a word of the command either.
      endWord();
      i += 1;
      while (command[i] === "<") i += 1;
      redirect = "read";
      continue;
    }
    if (/\s/.test(ch)) {
      endWord();
      i += 1;
      continue;
    }
    word += ch;
    inWord = true;
    i += 1;
  }
  endCommand(command.length);
}

/** Reads a double-quoted string from `from` (after the quote); returns the index after the closing quote. */
function readDoubleQuoted(
  command: string,
  from: number,
  append: (text: string) => void,
  substitution: (inner: string) => void,
): number {
  let i = from;
  while (i < command.length && command[i] !== '"') {
    const ch = command[i];
    if (ch === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1])) {
      append(command[i + 1]);
      i += 2;
      continue;
    }
    if (ch === "$" && command[i + 1] === "(") {
      const end = matchingParen(command, i + 2);
      substitution(command.slice(i + 2, end));
      append("$(...)");
      i = end + 1;
      continue;
    }
    if (ch === "`") {
      const close = command.indexOf("`", i + 1);
      const end = close === -1 ? command.length : close;
      substitution(command.slice(i + 1, end));
      append("$(...)");
      i = end + 1;
      continue;
    }
    append(ch);
    i += 1;
  }
  return i + 1;
}

/** Index of the `)` closing a `(` whose content starts at `from` (or the end of the text). */
function matchingParen(command: string, from: number): number {
  let depth = 1;
  let quote: string | undefined;
  for (let i = from; i < command.length; i += 1) {
    const ch = command[i];
    if (quote) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "(") depth += 1;
    else if (ch === ")") {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return command.length;
}
