import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OptionTable, parseOptions } from "../../src/permissions/option-parser.js";
import { programOption } from "../../src/permissions/program-options.js";
import { readOnlyCall, readOnlyVerdict } from "../../src/permissions/read-only-commands.js";
import { READ_ONLY_COMMANDS } from "../../src/permissions/read-only-tables.js";
import { splitArguments } from "../../src/skills/arguments.js";

const words = (line: string) => splitArguments(line);
const verdict = (line: string) => readOnlyVerdict(words(line));

/** Every option table with the command line that reaches it (`sort`, `git log`). */
const TABLES: Array<[string, OptionTable]> = Object.entries(READ_ONLY_COMMANDS).flatMap(([name, spec]) => [
  ...(spec.anyArguments ? [] : ([[name, spec.options]] as Array<[string, OptionTable]>)),
  ...Object.entries(spec.subcommands ?? {}).map(
    ([sub, table]) => [`${name} ${sub}`, table] as [string, OptionTable],
  ),
]);

/** Flags (no value) of a table's short options. */
function shortFlags(table: OptionTable): string[] {
  const spec = table.short ?? "";
  const out: string[] = [];
  for (let i = 0; i < spec.length; i += 1) {
    if (spec[i + 1] === ":") {
      i += spec[i + 2] === ":" ? 2 : 1;
      continue;
    }
    out.push(spec[i]);
  }
  return out.filter((letter) => !Object.hasOwn(table.unsafe ?? {}, `-${letter}`));
}

describe("the commands people use daily stay read-only", () => {
  it.each([
    "ls",
    "ls -la",
    "ls -lah --color=auto src",
    "cat README.md",
    "cat -n a.txt",
    "head -n 20 a.txt",
    "head -5 a.txt",
    "head -n5 a.txt",
    "tail -f log.txt",
    "tail -n +10 a.txt",
    "wc -l a.txt",
    "grep -rn TODO src",
    "grep -E 'a|b' -r .",
    "grep -A3 -B 2 --include=*.ts -ri foo .",
    "grep -c x a",
    "rg -n foo src",
    "rg --type ts -l foo",
    "find . -name '*.ts' -type f",
    "find src -maxdepth 2 -type d -not -path '*/node_modules/*'",
    "find . -newer a.txt -print0",
    "du -sh .",
    "df -h",
    "stat a.txt",
    "file a.txt",
    "tree -L 2",
    "sort -u a.txt",
    "sort -t, -k2 -n a.txt",
    "uniq -c a.txt",
    "cut -d: -f1 a.txt",
    "diff -u a b",
    "cmp a b",
    "jq .name package.json",
    "jq -r --arg n x '.[$n]' package.json",
    "xxd a.bin",
    "xxd -l 64 -c8 a.bin",
    "od -An -tx1 a.bin",
    "sha256sum a",
    "date",
    "date +%Y-%m-%d",
    "date -u +%s",
    "echo hello",
    "echo -x anything --goes",
    "printf '%s\\n' a b",
    "pwd",
    "which node",
    "uname -a",
    "id -un",
    "basename a/b.ts .ts",
    "dirname a/b",
    "realpath a",
    "readlink -f a",
    "git status",
    "git status -sb",
    "git status --porcelain=v1",
    "git log --oneline -n 5",
    "git log --oneline -5",
    "git log --graph --oneline --all --decorate",
    "git log -p -- src",
    "git log --format='%H %s' --since='2 weeks ago' --author=me",
    "git diff",
    "git diff --stat HEAD~1",
    "git diff --cached --name-only",
    "git diff -U5 -- a.ts",
    "git show HEAD",
    "git show --stat HEAD~2",
    "git blame -L 1,5 a.ts",
    "git branch",
    "git branch -a",
    "git branch -vv",
    "git branch --show-current",
    "git branch --list 'feat*'",
    "git branch --merged",
    "git tag",
    "git tag -l 'v*'",
    "git remote -v",
    "git rev-parse --abbrev-ref HEAD",
    "git rev-parse --show-toplevel",
    "git ls-files",
    "git describe --tags",
    "git -C sub status",
    "git --no-pager log -1",
    "git grep -n foo",
    "git shortlog -sn",
    "git cat-file -p HEAD",
    "git ls-tree -r --name-only HEAD",
    "git rev-list --count HEAD",
    "git merge-base main HEAD",
    "git show-ref --tags",
  ])("%s", (line) => {
    expect(verdict(line)).toHaveProperty("pathArguments");
  });
});

describe("options that write or run something make a call not read-only, the word named", () => {
  it.each([
    ["sort -S 1 --compress-prog=sh", "--compress-prog=sh", "(--compress-program) runs a program"],
    ["git grep --open-files-in-pag='touch M #' hi", "--open-files-in-pag=touch M #", "runs the program"],
    ["sort --outp=f", "--outp=f", "(--output) writes a file"],
    ["sort -o f a", "-o", "writes a file"],
    ["sort -rno f a", "-rno", "`-o` (in `-rno`) writes a file"],
    ["sort --c x", "--c", "ambiguous"],
    ["git diff --outp=f", "--outp=f", "ambiguous"],
    ["git diff --output=f", "--output=f", "writes a file"],
    ["git log --ext-d", "--ext-d", "(--ext-diff) runs the external diff"],
    ["git log --show-sig", "--show-sig", "runs gpg"],
    ["date --se=2020-01-01", "--se=2020-01-01", "(--set) sets the clock"],
    ["date -s 2020-01-01", "-s", "sets the clock"],
    ["date 010101012020", "010101012020", "sets the clock"],
    ["uniq in out", "out", "the file uniq writes"],
    ["xxd in out", "out", "the file xxd writes"],
    ["xxd -r dump", "-r", "back into a file"],
    ["tree -o out", "-o", "writes a file"],
    ["tree -R", "-R", "00Tree.html"],
    ["find . -exec rm {} ;", "-exec", "runs a program"],
    ["find . -delete", "-delete", "deletes files"],
    ["find . -fprint out", "-fprint", "writes a file"],
    ["rg --pre sh foo", "--pre", "runs a program"],
    ["rg --pr sh foo", "--pr", "not an option hx knows"],
    ["file -C -m magic", "-C", "compiled magic"],
    ["printf -v x hi", "-v", "assigns a shell variable"],
    ["ls --frobnicate", "--frobnicate", "not an option hx knows to be read-only for ls"],
    ["git -c core.pager=sh log", "-c", "sets git configuration"],
    ["git --config-env=core.pager=X log", "--config-env=core.pager=X", "sets git configuration"],
    ["git --git-dir=evil log", "--git-dir=evil", "reads a repository"],
    ["git branch new", "new", "names a branch to create"],
    ["git branch -D main", "-D", "deletes a branch"],
    ["git branch --del main", "--del", "(--delete) deletes a branch"],
    ["git tag v1", "v1", "names a tag to create"],
    ["git remote add x y", "add", "remote subcommand"],
    ["git stash", "stash", "not a read-only git subcommand"],
    ["git", "git", "without a subcommand"],
  ])("%s", (line, word, reason) => {
    const got = verdict(line);
    expect(got).toHaveProperty("notReadOnly");
    const { notReadOnly } = got as { notReadOnly: { word: string; reason: string } };
    expect(notReadOnly.word).toBe(word);
    expect(notReadOnly.reason).toContain(reason);
  });

  it("is undefined for a command not on the list", () => {
    expect(verdict("rm -rf x")).toBeUndefined();
    expect(readOnlyCall(words("sort --compress-program=sh"))).toBeUndefined();
  });
});

describe("the option tables", () => {
  it.each(TABLES)("%s: each short letter and long name is given once", (_command, table) => {
    const letters = (table.short ?? "").replaceAll(":", "");
    expect([...letters].filter((letter, i) => letters.indexOf(letter) !== i)).toEqual([]);
    const names = (table.long ?? []).map((entry) => entry.replace(/(=\?|=2|=|\?)$/, ""));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    const unsafe = Object.keys(table.unsafe ?? {});
    const dashes = table.singleDash ? "-" : "--";
    expect(
      unsafe.filter(
        (name) =>
          names.some((safe) => dashes + safe === name) ||
          (letters.includes(name.slice(1)) && name.length === 2),
      ),
    ).toEqual([]);
  });
});

describe("the option parser (properties)", () => {
  const abbreviating = TABLES.filter(([, table]) => table.abbreviations !== false && !table.singleDash);
  const dangerousLong = abbreviating.flatMap(([command, table]) =>
    Object.keys(table.unsafe ?? {})
      .filter((name) => name.startsWith("--"))
      .map((name) => [command, table, name.slice(2)] as const),
  );

  it("has dangerous long options to test", () => {
    expect(dangerousLong.length).toBeGreaterThan(20);
  });

  it("never reads a prefix of a dangerous long option as read-only (=value, next word, among safe words)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...dangerousLong),
        fc.nat(),
        fc.constantFrom("=", " ", ""),
        fc.array(fc.constantFrom("a.txt", "--", "-"), { maxLength: 2 }),
        ([command, table, name], cut, join, around) => {
          const prefix = name.slice(0, 1 + (cut % name.length));
          // A safe option spelled exactly as the prefix is that option, for the program too.
          const safe = (table.long ?? []).some((entry) => entry.replace(/(=\?|=2|=|\?)$/, "") === prefix);
          fc.pre(!safe);
          const option = join === " " ? [`--${prefix}`, "v"] : [`--${prefix}${join === "=" ? "=v" : ""}`];
          const args = around.includes("--") ? [...option, ...around] : [...around, ...option];
          const result = readOnlyVerdict([...command.split(" "), ...args]);
          expect(result, `${command} ${args.join(" ")}`).toHaveProperty("notReadOnly");
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("splits short clusters: safe flags only are read-only, an unsafe letter anywhere is not", () => {
    const withShort = TABLES.filter(([, table]) => !table.singleDash && shortFlags(table).length > 1);
    const withUnsafe = withShort.flatMap(([command, table]) =>
      Object.keys(table.unsafe ?? {})
        .filter((name) => /^-[A-Za-z]$/.test(name))
        .map((name) => [command, table, name[1]] as const),
    );
    expect(withUnsafe.length).toBeGreaterThan(5);
    fc.assert(
      fc.property(
        fc.constantFrom(...withShort),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        ([command, table], picks) => {
          const flags = shortFlags(table);
          const cluster = `-${picks.map((n) => flags[n % flags.length]).join("")}`;
          const result = parseOptions(table, [cluster], command);
          expect(result.ok, `${command} ${cluster}`).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...withUnsafe),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.nat(),
        ([command, table, letter], picks, at) => {
          const flags = shortFlags(table);
          const letters = picks.map((n) => flags[n % flags.length]);
          letters.splice(at % (letters.length + 1), 0, letter);
          const cluster = `-${letters.join("")}`;
          const result = parseOptions(table, [cluster, "x"], command);
          expect(result.ok, `${command} ${cluster} x`).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("reads a value the way getopt does: glued, in the next word, or after =", () => {
    const head = READ_ONLY_COMMANDS.head.options;
    expect(parseOptions(head, ["-n5", "a"], "head")).toMatchObject({ ok: true, operands: ["a"] });
    expect(parseOptions(head, ["-n", "5", "a"], "head")).toMatchObject({ ok: true, operands: ["a"] });
    expect(parseOptions(head, ["--lines=5", "a"], "head")).toMatchObject({ ok: true, operands: ["a"] });
    expect(parseOptions(head, ["--li", "5", "a"], "head")).toMatchObject({
      ok: true,
      options: [{ name: "--lines", value: "5" }],
    });
    // The value of -S is `1o`, not -o: sort -S1o f reads f.
    expect(parseOptions(READ_ONLY_COMMANDS.sort.options, ["-S1o", "f"], "sort")).toMatchObject({ ok: true });
    // After --, an option is an operand.
    expect(parseOptions(READ_ONLY_COMMANDS.sort.options, ["--", "-o"], "sort")).toMatchObject({
      ok: true,
      operands: ["-o"],
    });
  });

  it("never reads as read-only a word sequence holding an unsafe option spelled out", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TABLES.filter(([, table]) => Object.keys(table.unsafe ?? {}).length > 0)),
        fc.array(fc.constantFrom("a.txt", "b", "-"), { maxLength: 3 }),
        ([command, table], before) => {
          const unsafe = Object.keys(table.unsafe ?? {});
          for (const name of unsafe) {
            const first = table.optionsFirst ? [] : before;
            const result = readOnlyVerdict([...command.split(" "), ...first, name, "value"]);
            expect(result, `${command} ${name}`).toHaveProperty("notReadOnly");
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("options with which a command runs a program of the caller's choosing", () => {
  it.each([
    ["npm test --script-shell=./evil.sh", "--script-shell=./evil.sh"],
    ["npm test --script-sh ./evil.sh", "--script-sh"],
    ["npm run build --node-options=--require=./x.js", "--node-options=--require=./x.js"],
    ["pnpm test --config.script-shell=./x", "--config.script-shell=./x"],
    ["yarn test --script-shell ./x", "--script-shell"],
    ["git -c core.pager=sh log", "-c"],
    ["git --config-env=core.pager=X status", "--config-env=core.pager=X"],
    ["git -C sub -c x=y status", "-c"],
    ["git grep -Osh foo", "-Osh"],
    ["git grep --open-files-in-pager=sh foo", "--open-files-in-pager=sh"],
    ["git rebase -x 'make test' main", "-x"],
    ["git bisect run ./t.sh", "run"],
    ["git submodule foreach 'rm -rf x'", "foreach"],
  ])("%s", (line, word) => {
    expect(programOption(words(line))).toBe(word);
  });

  it.each([
    "npm test",
    "npm test -- --coverage",
    "npm run build --silent",
    "git log --oneline",
    "git commit -c HEAD",
    "git status",
  ])("%s runs no program of its own choosing", (line) => {
    expect(programOption(words(line))).toBeUndefined();
  });
});
