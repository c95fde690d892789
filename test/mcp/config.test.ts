// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are what these tests are about.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digestOf, parseServerEntries, resolveTransport } from "../../src/mcp/config.js";
import { expandVariables } from "../../src/mcp/expand.js";
import { loadMcpConfiguration } from "../../src/mcp/sources.js";
import { loadSettings } from "../../src/settings/index.js";
import { tempDir } from "../support/temp-dir.js";

describe("expandVariables", () => {
  it("expands set variables, defaults, and reports the missing ones", () => {
    const env = { HOME: "/home/me", EMPTY: "" };
    expect(expandVariables("${HOME}/x", env)).toEqual({ value: "/home/me/x", missing: [] });
    expect(expandVariables("${EMPTY:-fallback}", env).value).toBe("");
    expect(expandVariables("${NOPE:-fallback}", env).value).toBe("fallback");
    expect(expandVariables("${NOPE:-}", env).value).toBe("");
    expect(expandVariables("a ${NOPE} b ${NOPE} ${ALSO}", env)).toEqual({
      value: "a ${NOPE} b ${NOPE} ${ALSO}",
      missing: ["NOPE", "ALSO"],
    });
    expect(expandVariables("$HOME ${not a var} $", env).value).toBe("$HOME ${not a var} $");
  });

  it("leaves text without references unchanged (property)", () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes("${")),
        (text) => {
          expect(expandVariables(text, { A: "x" })).toEqual({ value: text, missing: [] });
        },
      ),
    );
  });

  it("replaces a reference by the variable's value whatever it holds (property)", () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/);
    fc.assert(
      fc.property(name, fc.string(), fc.string(), fc.string(), (key, value, before, after) => {
        fc.pre(!before.includes("${") && !after.includes("${") && !after.startsWith("}"));
        const result = expandVariables(`${before}\${${key}}${after}`, { [key]: value });
        expect(result).toEqual({ value: `${before}${value}${after}`, missing: [] });
      }),
    );
  });

  it("uses the default exactly when the variable is unset (property)", () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes("}")),
        fc.option(fc.string()),
        (fallback, set) => {
          const env = set === null ? {} : { V: set };
          expect(expandVariables(`\${V:-${fallback}}`, env).value).toBe(set === null ? fallback : set);
        },
      ),
    );
  });
});

describe("parseServerEntries", () => {
  const origin = { file: "/p/.mcp.json", scope: "project" as const };

  it("reads Claude Code's stdio, http and sse entries", () => {
    const { servers, diagnostics } = parseServerEntries(
      {
        fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { A: "1" } },
        api: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        old: { type: "sse", url: "https://example.com/sse" },
      },
      origin,
    );
    expect(diagnostics).toEqual([]);
    expect(servers.map((s) => s.name)).toEqual(["fs", "api", "old"]);
    expect(servers[0].digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("skips bad entries with a diagnostic and keeps the others", () => {
    const { servers, diagnostics } = parseServerEntries(
      { good: { command: "x" }, bad: { args: ["no command"] }, "bad name!": { command: "x" } },
      origin,
    );
    expect(servers.map((s) => s.name)).toEqual(["good"]);
    expect(diagnostics.map((d) => d.code)).toEqual(["mcp.server.invalid", "mcp.server.name"]);
    expect(diagnostics[0]).toMatchObject({ file: "/p/.mcp.json", keyPath: "mcpServers.bad" });
  });

  it("digests ignore key order and formatting, not content", () => {
    expect(digestOf({ command: "a", args: ["b"] })).toBe(digestOf({ args: ["b"], command: "a" }));
    expect(digestOf({ command: "a", args: ["b"] })).not.toBe(digestOf({ command: "a", args: ["c"] }));
  });
});

describe("resolveTransport", () => {
  it("expands command, args, env, url and headers", () => {
    const env = { TOKEN: "t0k", DIR: "/data" };
    expect(
      resolveTransport({ command: "${DIR}/bin", args: ["--root", "${DIR}"], env: { KEY: "${TOKEN}" } }, env),
    ).toEqual({
      transport: { type: "stdio", command: "/data/bin", args: ["--root", "/data"], env: { KEY: "t0k" } },
    });
    expect(
      resolveTransport(
        { type: "http", url: "https://${HOST:-example.com}/mcp", headers: { A: "Bearer ${TOKEN}" } },
        env,
      ),
    ).toEqual({ transport: { type: "http", url: "https://example.com/mcp", headers: { A: "Bearer t0k" } } });
    expect(resolveTransport({ url: "https://x/${NOPE}", headers: { B: "${ALSO}" } }, env)).toEqual({
      missing: ["NOPE", "ALSO"],
    });
  });
});

describe("loadMcpConfiguration", () => {
  it("merges .mcp.json, settings and --mcp-config with flag > local > project > user", async () => {
    const home = tempDir("hx-home-");
    const root = tempDir("hx-proj-");
    mkdirSync(path.join(root, ".git"));
    mkdirSync(path.join(root, ".hx"));
    const write = (file: string, json: unknown) => writeFileSync(file, JSON.stringify(json));
    write(path.join(root, ".mcp.json"), {
      mcpServers: { a: { command: "project-a" }, b: { command: "project-b" } },
    });
    write(path.join(root, ".hx", "settings.local.json"), { mcpServers: { b: { command: "local-b" } } });
    write(path.join(root, "extra.json"), {
      mcpServers: { c: { command: "flag-c" }, a: { command: "flag-a" } },
    });
    const previous = process.env.HOME;
    process.env.HOME = home;
    try {
      mkdirSync(path.join(home, ".hx"));
      write(path.join(home, ".hx", "settings.json"), {
        mcpServers: { a: { command: "user-a" }, u: { command: "user-u" } },
        enabledMcpjsonServers: ["b"],
      });
      const settings = await loadSettings(root);
      const config = await loadMcpConfiguration({ cwd: root, settings, configFiles: ["extra.json"] });
      const byName = Object.fromEntries(
        config.servers.map((s) => [s.name, [s.scope, (s.entry as { command: string }).command]]),
      );
      expect(byName).toEqual({
        a: ["flag", "flag-a"],
        b: ["local", "local-b"],
        c: ["flag", "flag-c"],
        u: ["user", "user-u"],
      });
      expect(config.trust.enabled).toEqual(["b"]);
      const strict = await loadMcpConfiguration({
        cwd: root,
        settings,
        configFiles: ["extra.json"],
        strict: true,
      });
      expect(strict.servers.map((s) => s.name).sort()).toEqual(["a", "c"]);
    } finally {
      process.env.HOME = previous;
    }
  });

  it("reports a broken .mcp.json and a missing --mcp-config file", async () => {
    const root = tempDir("hx-proj-");
    writeFileSync(path.join(root, ".mcp.json"), "{ not json");
    const settings = { merged: {}, files: [], diagnostics: [] };
    const config = await loadMcpConfiguration({ cwd: root, settings, configFiles: ["missing.json"] });
    expect(config.servers).toEqual([]);
    expect(config.diagnostics.map((d) => d.code).sort()).toEqual([
      "mcp.config.json",
      "mcp.config.unreadable",
    ]);
  });

  it("does not let project settings approve project servers", async () => {
    const root = tempDir("hx-proj-");
    const settings = {
      merged: {},
      files: [
        {
          path: "/p/.hx/settings.json",
          scope: "project" as const,
          settings: { enableAllProjectMcpServers: true },
        },
      ],
      diagnostics: [],
    };
    expect((await loadMcpConfiguration({ cwd: root, settings })).trust.allProjectServers).toBe(false);
  });
});

describe("mcpServers and mcp in settings", () => {
  it("are checked by the settings schema: a broken entry is a settings error", async () => {
    const { validateSettings } = await import("../../src/settings/validate.js");
    const good = validateSettings(
      {
        mcpServers: { fs: { command: "npx", args: ["x"] } },
        mcp: { deferTools: "always", toolBudget: 0.05 },
      },
      "/p/.hx/settings.json",
    );
    expect(good.diagnostics).toEqual([]);
    const bad = validateSettings(
      { mcpServers: { fs: { args: ["no command"] } }, mcp: { deferTools: "sometimes" } },
      "/p/.hx/settings.json",
    );
    expect(bad.diagnostics.filter((d) => d.level === "error").map((d) => d.keyPath)).toEqual(
      expect.arrayContaining(["mcpServers.fs", "mcp.deferTools"]),
    );
  });
});
