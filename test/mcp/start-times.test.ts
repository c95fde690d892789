import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ServerStartTimes, serverStartKey } from "../../src/mcp/start-times.js";
import { tempDir } from "../support/temp-dir.js";

const fileIn = (home: string) => path.join(home, ".hx", "cache", "mcp-start-times.json");

describe("MCP server start times", () => {
  it("keeps the last start of each server across sessions, and writes only when something changed", () => {
    const home = tempDir("hx-home-");
    const key = serverStartKey("fs", "node server.js /work", "/work");
    expect(key).not.toBe(serverStartKey("fs", "node server.js /other", "/work"));
    const first = ServerStartTimes.open(home);
    expect(first.expected(key)).toBeUndefined();
    first.save();
    expect(existsSync(fileIn(home))).toBe(false);
    first.record(key, 412.6);
    first.save();
    const second = ServerStartTimes.open(home);
    expect(second.expected(key)).toBe(413);
    // A faster start replaces it; a session that ended while it was starting never lowers it.
    second.record(key, 40);
    second.recordAtLeast(key, 25);
    expect(second.expected(key)).toBe(40);
    second.recordAtLeast(key, 300);
    expect(second.expected(key)).toBe(300);
  });

  it("reads a broken or foreign file as empty, and keeps the 500 servers started last", () => {
    const home = tempDir("hx-home-");
    mkdirSync(path.dirname(fileIn(home)), { recursive: true });
    writeFileSync(fileIn(home), "{not json");
    expect(ServerStartTimes.open(home).expected("x")).toBeUndefined();
    writeFileSync(fileIn(home), JSON.stringify({ a: "slow", b: -1, c: 120 }));
    const times = ServerStartTimes.open(home);
    expect([times.expected("a"), times.expected("b"), times.expected("c")]).toEqual([
      undefined,
      undefined,
      120,
    ]);
    for (let i = 0; i < 600; i++) times.record(`s${i}`, i);
    times.record("c", 7);
    times.save();
    const kept = JSON.parse(readFileSync(fileIn(home), "utf8"));
    expect(Object.keys(kept)).toHaveLength(500);
    expect(kept.c).toBe(7);
    expect(kept.s599).toBe(599);
    expect(kept.s0).toBeUndefined();
  });
});
