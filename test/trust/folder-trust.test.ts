import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  loadFolderTrust,
  projectFileTrusted,
  readTrustStore,
  recordTrust,
  revokeTrust,
  trustFile,
  trustKey,
} from "../../src/trust/index.js";
import { tempDir } from "../support/temp-dir.js";

describe("the trust store", () => {
  it("records by real path and forgets; other keys in the file are kept", async () => {
    const hx = tempDir("hx-dir-");
    const file = trustFile(hx);
    writeFileSync(file, JSON.stringify({ version: 1, note: "mine", folders: {} }));
    await recordTrust(file, "/a/b", new Date("2026-01-01T00:00:00Z"));
    expect(readTrustStore(file)).toEqual({
      ok: true,
      store: { folders: { "/a/b": { trustedAt: "2026-01-01T00:00:00.000Z" } } },
    });
    expect(JSON.parse(readFileSync(file, "utf8")).note).toBe("mine");
    expect(await revokeTrust(file, "/a/b")).toBe(true);
    expect(await revokeTrust(file, "/a/b")).toBe(false);
  });

  it("a file that is not a JSON object is a problem, never rewritten; relative keys are skipped", async () => {
    const hx = tempDir("hx-dir-");
    const file = trustFile(hx);
    for (const text of ["{", "[]", '{"folders": []}']) {
      writeFileSync(file, text);
      const read = readTrustStore(file);
      expect(read.ok, text).toBe(false);
      await expect(recordTrust(file, "/x")).rejects.toThrow(/left unchanged/);
      expect(readFileSync(file, "utf8")).toBe(text);
    }
    writeFileSync(file, JSON.stringify({ folders: { relative: {}, "/abs": { trustedAt: 3 } } }));
    expect(readTrustStore(file)).toEqual({
      ok: true,
      store: { folders: { "/abs": { trustedAt: undefined } } },
    });
    expect(readTrustStore(path.join(hx, "missing.json"))).toEqual({ ok: true, store: { folders: {} } });
  });
});

describe("loadFolderTrust", () => {
  it("is keyed by the repository root's real path; a recorded folder above counts; --trust and home count", async () => {
    const base = realpathSync(tempDir("hx-projects-"));
    const repo = path.join(base, "repo");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    mkdirSync(path.join(repo, "sub"));
    const link = path.join(base, "link");
    symlinkSync(repo, link);
    expect(trustKey(path.join(link, "sub"))).toBe(repo);

    const hx = tempDir("hx-dir-");
    expect(loadFolderTrust(path.join(repo, "sub"), hx)).toMatchObject({
      trusted: false,
      source: "none",
      key: repo,
    });
    expect(loadFolderTrust(repo, hx, { flag: true })).toMatchObject({ trusted: true, source: "flag" });
    expect(loadFolderTrust(repo, hx, { homeDir: repo })).toMatchObject({ trusted: true, source: "home" });
    await recordTrust(trustFile(hx), base);
    expect(loadFolderTrust(link, hx)).toMatchObject({ trusted: true, source: "recorded", recordedFor: base });
    // A sibling whose name starts the same is not below it.
    expect(loadFolderTrust(`${base}-other`, hx).trusted).toBe(false);
  });

  it("a broken trust file: untrusted, with the problem", () => {
    const hx = tempDir("hx-dir-");
    writeFileSync(trustFile(hx), "not json");
    const trust = loadFolderTrust(tempDir("hx-p-"), hx);
    expect(trust).toMatchObject({ trusted: false, source: "unreadable" });
    expect(trust.problem).toMatch(/is not valid JSON/);
  });

  it("projectFileTrusted: files inside an untrusted project are not; the user's own outside it are", () => {
    const repo = realpathSync(tempDir("hx-repo-"));
    const untrusted = { trusted: false, source: "none" as const, key: repo };
    expect(projectFileTrusted(path.join(repo, ".agents/skills/x/SKILL.md"), untrusted)).toBe(false);
    expect(projectFileTrusted(path.join(tempDir("hx-home-"), ".agents/skills/x/SKILL.md"), untrusted)).toBe(
      true,
    );
    expect(projectFileTrusted(path.join(repo, "x"), { ...untrusted, trusted: true })).toBe(true);
  });
});
