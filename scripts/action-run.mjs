#!/usr/bin/env node
// The run step of the GitHub Action (action.yml): reads the action's inputs from INPUT_*
// variables, runs `hx -p` (this checkout's bin/hx.cjs) with the prompt on stdin and
// `--output-format json`, and writes the result, session id and cost to $GITHUB_OUTPUT and a
// short summary to $GITHUB_STEP_SUMMARY. Exits with hx's exit code (docs/headless.md).
//
// Runs anywhere, not only in Actions: `INPUT_PROMPT=... node scripts/action-run.mjs` (tests run
// it offline against the fake model server, test/e2e/action.test.ts).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HX_BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "hx.cjs");

/** The environment variable each provider reads its key from. */
const KEY_VARIABLE = {
  deepseek: "DEEPSEEK_API_KEY",
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
};

function input(name) {
  const value = process.env[`INPUT_${name.replaceAll("-", "_").toUpperCase()}`] ?? "";
  return value.trim();
}

/** A list input: one item per line or comma (`bash(npm test*), read_file`); commas inside () stay. */
function listInput(name) {
  return input(name)
    .split(/\n|,(?![^()]*\))/)
    .map((item) => item.trim())
    .filter(Boolean);
}

function fail(message) {
  process.stderr.write(`hx action: ${message}\n`);
  process.exit(2);
}

const prompt = input("prompt");
if (!prompt) fail("the `prompt` input is empty.");
const provider = input("provider") || "deepseek";
const workspace = input("working-directory") || process.env.GITHUB_WORKSPACE || process.cwd();

const args = ["-p", "--output-format", "json", "--provider", provider, "-C", workspace];
const optional = [
  ["model", "--model"],
  ["base-url", "--base-url"],
  ["permission-mode", "--permission-mode"],
  ["output-schema", "--output-schema"],
  ["max-turns", "--max-turns"],
  ["max-budget-usd", "--max-budget-usd"],
];
for (const [name, flag] of optional) {
  const value = input(name);
  if (value) args.push(flag, value);
}
const allowed = listInput("allowed-tools");
if (allowed.length > 0) args.push("--allowed-tools", ...allowed);
// The checkout's own settings loosen nothing unless asked for (docs/permissions.md#folder-trust).
if (input("trust-folder") === "true") args.push("--trust");
const skills = listInput("skills-folder");
if (skills.length > 0) args.push("--skills-path", ...skills);

const env = { ...process.env };
const key = input("api-key");
const variable = KEY_VARIABLE[provider];
if (key && variable) env[variable] = key;
// The key must not reach the inputs hx's commands see: hx scrubs secrets from its children,
// and INPUT_API_KEY would be one more copy.
delete env.INPUT_API_KEY;

const child = spawn(process.execPath, [HX_BIN, ...args], { env, stdio: ["pipe", "pipe", "inherit"] });
let stdout = "";
child.stdout.on("data", (chunk) => {
  stdout += chunk;
});
child.stdin.end(prompt);
const code = await new Promise((resolve) => {
  child.on("close", (exit, signal) => resolve(exit ?? (signal === "SIGTERM" ? 143 : 1)));
});

let result;
try {
  result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "");
} catch {
  process.stderr.write(`hx action: hx printed no result object (exit ${code}).\n`);
  process.exit(code || 1);
}

/** `name<<EOF` blocks: any text, newlines included, is safe in $GITHUB_OUTPUT. */
function setOutput(name, value) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const file = process.env.GITHUB_OUTPUT;
  if (!file) {
    process.stdout.write(`${name}=${text}\n`);
    return;
  }
  const delimiter = `hx_${randomBytes(8).toString("hex")}`;
  appendFileSync(file, `${name}<<${delimiter}\n${text}\n${delimiter}\n`);
}

setOutput("result", result.result ?? "");
setOutput("session-id", result.session_id ?? "");
setOutput(
  "cost",
  result.total_cost_usd === null || result.total_cost_usd === undefined ? "" : String(result.total_cost_usd),
);
setOutput("subtype", result.subtype ?? "");
setOutput("structured-output", result.structured_output === undefined ? "" : result.structured_output);
setOutput("result-json", result);

if (process.env.GITHUB_STEP_SUMMARY) {
  const cost = typeof result.total_cost_usd === "number" ? ` · $${result.total_cost_usd.toFixed(4)}` : "";
  appendFileSync(
    process.env.GITHUB_STEP_SUMMARY,
    `### hx: ${result.subtype}\n\n${result.num_turns} turns · ${result.duration_ms} ms${cost} · session \`${result.session_id}\`\n\n${result.result ?? ""}\n`,
  );
}
process.exit(code);
