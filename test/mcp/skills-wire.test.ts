// The Skills extension's wire shape (SEP-2640 entries, digests, frontmatter identity) and how
// remote skills merge with the skills on this machine.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_SKILL_RESOURCES,
  readSkillEntry,
  sameFrontmatter,
  sha256Digest,
  verifyFile,
} from "../../src/mcp/skills-wire.js";
import { mergeRemoteSkills } from "../../src/skills/remote-skills.js";
import { fakeSkill } from "../skills/helpers.js";

const body = Buffer.from("---\nname: refunds\ndescription: Refunds.\n---\nDo it.\n");
const file = (uri: string, bytes = body) => ({ uri, digest: sha256Digest(bytes), size: bytes.length });
const entry = (extra: Record<string, unknown> = {}) => ({
  uri: "skill://acme/billing/refunds/SKILL.md",
  frontmatter: { name: "refunds", description: "Refunds." },
  resources: [file("skill://acme/billing/refunds/SKILL.md")],
  ...extra,
});

describe("readSkillEntry", () => {
  it("reads a well-formed entry with its root and folder name", () => {
    expect(readSkillEntry(entry())).toMatchObject({
      uri: "skill://acme/billing/refunds/SKILL.md",
      root: "skill://acme/billing/refunds",
      folderName: "refunds",
    });
  });

  it("declines entries it cannot check", () => {
    const problem = (raw: unknown) => (readSkillEntry(raw) as { problem?: string }).problem;
    expect(problem(entry({ resources: "dynamic" }))).toMatch(/generated/);
    expect(problem(entry({ resources: undefined }))).toMatch(/no file manifest/);
    expect(problem(entry({ uri: "skill://acme/refunds/README.md" }))).toMatch(/SKILL\.md/);
    expect(problem(entry({ resources: [file("skill://acme/billing/refunds/other.md")] }))).toMatch(
      /does not list its SKILL\.md/,
    );
    expect(
      problem(
        entry({ resources: [file("skill://acme/billing/refunds/SKILL.md"), file("skill://elsewhere/x.md")] }),
      ),
    ).toMatch(/outside the skill/);
    expect(
      problem(
        entry({ resources: [{ uri: "skill://acme/billing/refunds/SKILL.md", digest: "md5:00", size: 1 }] }),
      ),
    ).toMatch(/sha256 digest/);
    const many = Array.from({ length: MAX_SKILL_RESOURCES + 1 }, (_, i) =>
      file(i === 0 ? "skill://acme/billing/refunds/SKILL.md" : `skill://acme/billing/refunds/f${i}.md`),
    );
    expect(problem(entry({ resources: many }))).toMatch(/larger than a skill may be/);
  });

  it("never throws on any input", () => {
    fc.assert(fc.property(fc.anything(), (raw) => void readSkillEntry(raw)));
  });
});

describe("verifyFile", () => {
  it("accepts the listed bytes and names what differs otherwise", () => {
    expect(verifyFile(file("u"), body)).toBeUndefined();
    expect(verifyFile(file("u"), Buffer.from("tampered"))).toMatch(
      new RegExp(
        `^the server listed ${body.length} bytes with sha256:[0-9a-f]{64}; it sent 8 bytes with sha256:`,
      ),
    );
  });
});

describe("sameFrontmatter", () => {
  it("compares YAML's strings with JSON's numbers and booleans as text", () => {
    expect(
      sameFrontmatter(
        { name: "a", metadata: { version: "2", beta: "true" } },
        { name: "a", metadata: { version: 2, beta: true } },
      ),
    ).toBe(true);
    expect(sameFrontmatter({ name: "a", description: "x" }, { name: "a", description: "y" })).toBe(false);
    expect(sameFrontmatter({ name: "a" }, { name: "a", license: "MIT" })).toBe(false);
  });
});

describe("mergeRemoteSkills", () => {
  it("keeps a skill of this machine over a remote one, the first remote of a name, and says so", () => {
    const local = fakeSkill("notes", "Ours.", { file: "/p/.agents/skills/notes/SKILL.md" });
    const remote = (name: string, server: string) =>
      fakeSkill(name, "Theirs.", { source: `mcp:${server}`, file: `skill://${name}/SKILL.md` });
    const merged = mergeRemoteSkills(
      [local],
      [remote("notes", "a"), remote("style", "a"), remote("style", "b")],
    );
    expect(merged.skills.map((s) => [s.name, s.source])).toEqual([
      ["notes", "project"],
      ["style", "mcp:a"],
    ]);
    expect(merged.diagnostics.map((d) => d.message)).toEqual([
      "skill 'notes' of mcp:a is shadowed by /p/.agents/skills/notes/SKILL.md (project); using that one. Rename one of them to use both.",
      "skill 'style' of mcp:b is shadowed by skill://style/SKILL.md (mcp:a); using that one. Rename one of them to use both.",
    ]);
  });
});
