// The bash reading behind every permission decision: word normalisation, what a line
// contains, and (property tests) agreement with real bash.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expandBraces } from "../../src/fs/brace-expansion.js";
import { decodeAnsiC } from "../../src/permissions/shell-words.js";
import { checker, readLine, tempRoot } from "./support.js";

const viewTexts = async (command: string) =>
  (await readLine(command)).views.map((view) =>
    view.words.map((word) => (word.literal ? word.text : "$…")).join(" "),
  );

describe("words as bash sees them", () => {
  it.each([
    ["curl x", "curl x"],
    ['"curl" x', "curl x"],
    ["c\\url x", "curl x"],
    ["'c'\"u\"rl x", "curl x"],
    ["$'cu\\x72l' x", "curl x"],
    ["$'\\143url' x", "curl x"],
    ["/usr/bin/curl x", "curl x"],
    ["  curl   x", "curl x"],
    ["echo a\\ b", "echo a b"],
    ['echo "a\\"b\\$c\\d"', 'echo a"b$c\\d'],
  ])("%s → %s", async (command, expected) => {
    expect((await viewTexts(command))[0]).toBe(expected);
  });

  it("decodes $'…' like bash", () => {
    expect(decodeAnsiC("a\\nb\\t\\x41\\101\\u00e9\\'\\\\")).toBe("a\nb\tAAé'\\");
    expect(decodeAnsiC("\\cA\\e")).toBe("\x01\x1b");
  });

  it("expands braces like bash, quoted ones excepted", () => {
    expect(expandBraces("a{b,c}d")).toEqual(["abd", "acd"]);
    expect(expandBraces("{/,x}")).toEqual(["/", "x"]);
    expect(expandBraces("x{1..3}")).toEqual(["x1", "x2", "x3"]);
    expect(expandBraces("{a,{b,c}}")).toEqual(["a", "b", "c"]);
    expect(expandBraces("\\{a,b\\}")).toEqual(["\\{a,b\\}"]);
    expect(expandBraces("{a}")).toEqual(["{a}"]);
  });
});

describe("what a line runs", () => {
  it("looks through wrappers, shells, eval, find -exec, pipes into a shell and inline code", async () => {
    expect(await viewTexts("timeout -s KILL 5 nice -n 2 env A=1 curl x")).toContain("curl x");
    expect(await viewTexts("bash -x -c 'curl x'")).toContain("curl x");
    expect(await viewTexts("sh -ec -- 'curl x'")).toContain("curl x");
    expect(await viewTexts("eval curl x")).toContain("curl x");
    expect(await viewTexts("find . -exec curl {} \\;")).toContain("curl {}");
    expect(await viewTexts("echo 'curl x' | sh")).toContain("curl x");
    expect(await viewTexts("bash <<< 'curl x'")).toContain("curl x");
    expect(await viewTexts("bash <<'EOF'\ncurl x\nEOF")).toContain("curl x");
    expect(await viewTexts("echo $(curl x)")).toContain("curl x");
    expect(await viewTexts("{ curl x; }")).toContain("curl x");
    expect(
      (await viewTexts("python3 -c 'import os; os.system(\"curl x\")'")).some((v) => v.startsWith("curl x")),
    ).toBe(true);
    expect(await viewTexts("command -v curl")).toEqual(["command -v curl"]);
  });

  it("looks into text other commands run: trap, alias, script -c, xargs", async () => {
    expect(await viewTexts("trap 'curl x' EXIT")).toContain("curl x");
    expect(await viewTexts("shopt -s expand_aliases; alias ls='curl x'; ls")).toContain("curl x");
    expect(await viewTexts("script -qc 'curl x' /dev/null")).not.toContain("curl x"); // -qc: not the -c form
    expect(await viewTexts("script -c 'curl x' /dev/null")).toContain("curl x");
    expect(await viewTexts("cat list | xargs -n1 curl")).toContain("curl $…");
    // Input written out in the line is what xargs and parallel pass on.
    expect(await viewTexts("echo x | xargs -n1 curl")).toContain("curl x");
    expect(await viewTexts("echo 'curl x' | xargs -I{} sh -c '{}'")).toContain("curl x");
    expect(await viewTexts("xargs curl <<< 'a b'")).toContain("curl a b");
    expect(await viewTexts("printf 'a\\nb\\n' | xargs -I{} curl {}")).toEqual(
      expect.arrayContaining(["curl a", "curl b"]),
    );
    expect(await viewTexts("parallel curl ::: a b")).toEqual(expect.arrayContaining(["curl a", "curl b"]));
    expect(await viewTexts("echo 'curl x' | parallel")).toContain("curl x");
    expect(await viewTexts("cat list | parallel curl")).toContain("curl $…");
    expect((await readLine("cat list | xargs -I{} sh -c '{}'")).computed).toContain("computed at run time");
    expect((await readLine("cat list | xargs bash -c")).computed).toContain("computed at run time");
    expect(await viewTexts("echo 'curl x' | xargs bash -c")).toContain("curl");
  });

  it("marks what it cannot know: computed command names and piped scripts", async () => {
    expect((await readLine("$(which curl) x")).computed).toContain("command name is computed");
    expect((await readLine("$c x")).computed).toContain("command name is computed");
    expect((await readLine("curl x | sh")).computed).toContain("pipes commands computed at run time");
    expect((await readLine('bash -c "$x"')).computed).toContain("computed at run time");
    expect((await readLine("echo ok")).computed).toBeUndefined();
  });

  it("lists what stops an allow rule", async () => {
    const features = async (command: string) => (await readLine(command)).features.join(" | ");
    expect(await features("echo `id`")).toContain("command substitution");
    expect(await features("cat <(ls)")).toContain("process substitution");
    expect(await features("echo $HOME")).toContain("variable expansion");
    expect(await features("cat <<EOF\nx\nEOF")).toContain("here-document");
    expect(await features("cat <<< x")).toContain("here-string");
    expect(await features("ls # note")).toContain("comment");
    expect(await features("for f in a; do ls; done")).toContain("control structure");
    expect(await features("f() { ls; }")).toContain("function");
    expect(await features("A=1 ls")).toContain("assignment");
    expect(await features("git status ''';touch M;'''")).toContain("quoted argument");
    expect(await features("git status && ls -la | wc -l")).toBe("");
  });

  it("reports what bash would not parse", async () => {
    for (const command of [
      "echo foo\\",
      "git status ;; touch M",
      'echo "unclosed',
      "echo $(",
      "if true; then",
      "git status\rtouch M",
      "echo $'\\x01'",
    ]) {
      expect((await readLine(command)).parseError, command).toBeDefined();
    }
    expect((await readLine("git status\\\n; ls")).parseError).toBeUndefined();
  });

  it("follows cd for relative paths and redirections", async () => {
    const line = await readLine("cd sub && echo x > out && cd / && ls");
    expect(line.commands.map((command) => command.cwd)).toEqual(["/ws", "/ws/sub", "/ws/sub", "/"]);
    // tree-sitter-bash hangs `> out` on the whole `cd sub && echo x` list; both folders count.
    expect(line.fileWrites).toContain("/ws/sub/out");
    expect((await readLine('cd "$d" && ls')).commands[1].cwd).toBeUndefined();
    expect((await readLine("(cd /; ls) && ls")).commands.map((c) => c.cwd)).toEqual(["/ws", "/", "/ws"]);
  });
});

/** Quotes `word` for bash in one of several ways, all meaning the same word. */
function quoteWord(word: string, style: number): string {
  switch (style % 4) {
    case 0:
      return `'${word.replaceAll("'", `'\\''`)}'`;
    case 1:
      return `$'${[...word].map((ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`).join("")}'`;
    case 2:
      return `"${word.replace(/["\\$`]/g, "\\$&")}"`;
    default:
      // Backslashes for printable characters; tree-sitter does not take `\<tab>` (a parse error, which is safe).
      return word === ""
        ? "''"
        : word.replace(/[^A-Za-z0-9_./-]/g, (ch) =>
            ch <= " " || ch === "\x7f"
              ? `$'\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}'`
              : `\\${ch}`,
          );
  }
}

// Printable characters, tabs and newlines: other control characters make hx refuse to decide
// (bash mishandles \x01 and \x7f in $'…', and a carriage return splits differently), which the
// parse-error tests cover.
const wordArb = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 32, max: 126 }).map((code) => String.fromCharCode(code)),
    fc.constantFrom("\t", "\n"),
  ),
  maxLength: 12,
});

describe("agrees with real bash (property tests)", () => {
  const bin = path.join(tempRoot(), "bin");
  mkdirSync(bin);
  const log = path.join(bin, "..", "log");
  // A probe command that records its arguments, NUL-separated, one call per line.
  writeFileSync(
    path.join(bin, "hxprobe"),
    `#!/bin/sh\n{ printf 'CALL'; for a in "$@"; do printf '\\0%s' "$a"; done; printf '\\n'; } >> "${log}"\n`,
  );
  writeFileSync(path.join(bin, "touch"), `#!/bin/sh\nprintf 'TOUCH\\n' >> "${log}"\n`);
  chmodSync(path.join(bin, "hxprobe"), 0o755);
  chmodSync(path.join(bin, "touch"), 0o755);
  const bash = execFileSync("sh", ["-c", "command -v bash"], { encoding: "utf8" }).trim();
  const runBash = (line: string): string => {
    rmSync(log, { force: true });
    try {
      execFileSync(bash, ["-c", line], { env: { PATH: bin }, stdio: "ignore", timeout: 5000 });
    } catch {
      // Syntax errors and failing commands are fine: what ran is in the log.
    }
    try {
      return readFileSync(log, "utf8");
    } catch {
      return "";
    }
  };

  it("reads quoted words exactly as bash passes them", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(wordArb, fc.nat()), { minLength: 1, maxLength: 4 }),
        async (words) => {
          const line = `hxprobe ${words.map(([word, style]) => quoteWord(word, style)).join(" ")}`;
          const parsed = await readLine(line);
          // Backslash escapes next to $'…' trip tree-sitter now and then; hx then reports a
          // parse error (the call is asked, never allowed). Quotes alone must always be read.
          if (words.every(([, style]) => style % 4 !== 3)) expect(parsed.parseError).toBeUndefined();
          if (parsed.parseError) return;
          const ours = parsed.views[0].words.slice(1).map((word) => word.text);
          expect(ours).toEqual(words.map(([word]) => word));
          const theirs = runBash(line).replace(/\n$/, "").split("\0").slice(1);
          expect(theirs).toEqual(ours);
        },
      ),
      { numRuns: 60 },
    );
  });

  const fragments = [
    "hxprobe a",
    "hxprobe 'a;b'",
    'hxprobe "a b"',
    "hxprobe $'\\''",
    "hxprobe '\"'",
    "hxprobe \\'",
    "hxprobe #",
    " # ",
    "'",
    '"',
    "`",
    "$(",
    ")",
    ";",
    "&&",
    "||",
    "|",
    "&",
    "\n",
    "\\\n",
    "touch m",
    "touch",
    " ",
    "<<EOF\n",
    "EOF\n",
    "<<'E'\n",
    "E\n",
    "$'\\x27'",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
    "${IFS}",
    "eval",
    "{",
    "}",
    "(",
    "$((1))",
    "\\",
    "\r",
  ];

  it("never allows a line under which bash runs anything but the allowed command", async () => {
    const check = checker({ allow: ["bash(hxprobe *)"], readOnlyCommands: false });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 8 }),
        async (parts) => {
          const line = parts.join("");
          const { decision } = await check.check({ tool: "bash", effect: "execute", subject: line });
          if (decision.action !== "allow") return;
          const ran = runBash(line);
          expect(ran, JSON.stringify(line)).not.toContain("TOUCH");
        },
      ),
      // HX_FC_RUNS=4000 hunts longer (it passed 4,000 runs on 2026-12-02).
      { numRuns: Number(process.env.HX_FC_RUNS ?? 300) },
    );
    // 300 bash processes: under a loaded machine this took over the default 30 s once.
  }, 120_000);
});
