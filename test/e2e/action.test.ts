// The GitHub Action's run step (scripts/action-run.mjs), run offline from this checkout against
// the fake model server, as the composite action in action.yml runs it.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";
import { hxEnv, REPO_ROOT } from "../support/run-hx.js";
import { tempDir } from "../support/temp-dir.js";

const SCRIPT = path.join(REPO_ROOT, "scripts", "action-run.mjs");

let server: FakeModelServer;
let work: string;
let outputFile: string;
let summaryFile: string;

beforeEach(async () => {
  server = await startFakeModelServer();
  work = tempDir("hx-action-");
  const runner = tempDir("hx-action-runner-");
  outputFile = path.join(runner, "output");
  summaryFile = path.join(runner, "summary");
  writeFileSync(outputFile, "");
  writeFileSync(summaryFile, "");
});
afterEach(async () => {
  await server.close();
});

function runAction(
  inputs: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string> = {
    GITHUB_WORKSPACE: work,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
  };
  for (const [name, value] of Object.entries(inputs))
    env[`INPUT_${name.replaceAll("-", "_").toUpperCase()}`] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT], { env: hxEnv(env), cwd: work });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** $GITHUB_OUTPUT as written: `name<<DELIMITER` blocks. */
function outputs(): Record<string, string> {
  const text = readFileSync(outputFile, "utf8");
  const found: Record<string, string> = {};
  const block = /^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const match of text.matchAll(block)) found[match[1]!] = match[3]!;
  return found;
}

const base = () => ({
  provider: "openai",
  "base-url": `${server.url}/v1`,
  model: "gpt-4o",
  "api-key": "sk-from-secret",
});

describe("the action's run script", () => {
  it("runs hx -p and sets the result, session id and cost outputs", async () => {
    server.reply().text("Line one\nLine two").usage({ input: 1000, output: 100 });
    const run = await runAction({ ...base(), prompt: "review this" });
    expect(run.code, run.stderr).toBe(0);
    const out = outputs();
    expect(out.result).toBe("Line one\nLine two");
    expect(out["session-id"]).toMatch(/\S+/);
    expect(Number(out.cost)).toBeCloseTo((1000 * 2.5 + 100 * 10) / 1e6, 9);
    expect(out.subtype).toBe("success");
    expect(JSON.parse(out["result-json"]!)).toMatchObject({ type: "result", session_id: out["session-id"] });
    expect(readFileSync(summaryFile, "utf8")).toContain("### hx: success");
    // The key went to the provider's variable, the prompt in through stdin.
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-from-secret");
    expect(server.requests[0]!.body.messages.at(-1)).toMatchObject({ role: "user", content: "review this" });
  });

  it("passes allowed tools, the skills folder and the output schema", async () => {
    const skills = path.join(work, "ci-skills", "pr-review");
    mkdirSync(skills, { recursive: true });
    writeFileSync(
      path.join(skills, "SKILL.md"),
      "---\nname: pr-review\ndescription: How this team reviews pull requests.\n---\nLook at the tests first.\n",
    );
    writeFileSync(
      path.join(work, "verdict.json"),
      JSON.stringify({ type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] }),
    );
    server.reply().tool("bash", { command: "touch allowed.txt" });
    server.reply().text('{"ok": true}');
    const run = await runAction({
      ...base(),
      prompt: "review",
      "allowed-tools": "bash(touch allowed.txt), read_file",
      "skills-folder": "ci-skills",
      "output-schema": "verdict.json",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(path.join(work, "allowed.txt"))).toBe(true);
    expect(JSON.stringify(server.requests[0]!.body)).toContain("pr-review");
    expect(JSON.parse(outputs()["structured-output"]!)).toEqual({ ok: true });
  });

  it("the checkout's settings loosen nothing unless trust-folder is true", async () => {
    mkdirSync(path.join(work, ".hx"), { recursive: true });
    writeFileSync(
      path.join(work, ".hx", "settings.json"),
      JSON.stringify({ permissions: { allow: ["bash(touch from-settings.txt)"] } }),
    );
    for (const trust of ["false", "true"]) {
      server.reply().tool("bash", { command: "touch from-settings.txt" });
      server.reply().text("done");
      const run = await runAction({ ...base(), prompt: "go", "trust-folder": trust });
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(path.join(work, "from-settings.txt")), trust).toBe(trust === "true");
    }
  });

  it("exits with hx's code and still sets the outputs when the run fails", async () => {
    for (let i = 0; i < 2; i++) server.reply().tool("glob", { pattern: "*" });
    const run = await runAction({ ...base(), prompt: "loop", "max-turns": "2" });
    expect(run.code).toBe(1);
    expect(outputs().subtype).toBe("error_max_turns");
  });

  it("refuses an empty prompt without calling the model", async () => {
    const run = await runAction({ ...base(), prompt: "  " });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the `prompt` input is empty");
    expect(server.requests).toHaveLength(0);
  });
});

describe("action.yml", () => {
  it("hands every input to the run step, and the step runs the script", () => {
    const action = parse(readFileSync(path.join(REPO_ROOT, "action.yml"), "utf8"));
    expect(action.runs.using).toBe("composite");
    const step = action.runs.steps.find((s: { id?: string }) => s.id === "hx");
    expect(step.run).toContain("scripts/action-run.mjs");
    const script = readFileSync(SCRIPT, "utf8");
    for (const name of Object.keys(action.inputs)) {
      if (name === "node-version") continue;
      const variable = `INPUT_${name.replaceAll("-", "_").toUpperCase()}`;
      expect(step.env[variable], variable).toBe(`\${{ inputs.${name} }}`);
      expect(script).toContain(`"${name}"`);
    }
    for (const output of ["result", "session-id", "cost"]) {
      expect(action.outputs[output].value).toBe(`\${{ steps.hx.outputs.${output} }}`);
    }
    expect(existsSync(path.join(REPO_ROOT, "docs", "ci.md"))).toBe(true);
  });
});
