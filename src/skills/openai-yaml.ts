import { existsSync } from "node:fs";
import path from "node:path";
import { readSmallFileSync } from "../fs/regular-file.js";
import { isPlainObject, parseYaml } from "./parse.js";

/** Codex keeps per-skill settings in `agents/openai.yaml` next to SKILL.md. */
const OPENAI_YAML = path.join("agents", "openai.yaml");
const MAX_BYTES = 64 * 1024;

/**
 * Whether Codex's `agents/openai.yaml` forbids implicit invocation
 * (`policy: { allow_implicit_invocation: false }`), which hx reads as
 * `disable-model-invocation: true`. A missing or unreadable file forbids nothing; a broken
 * one leaves a warning.
 */
export function forbidsImplicitInvocation(dir: string, warnings: string[]): boolean {
  const file = path.join(dir, OPENAI_YAML);
  // Most skills have none: existsSync does not throw, so the common case stays cheap.
  if (!existsSync(file)) return false;
  const read = readSmallFileSync(file, MAX_BYTES);
  if (!read.ok) {
    if (read.reason !== "missing") warnings.push(`${OPENAI_YAML} ${read.message}; ignored`);
    return false;
  }
  const parsed = parseYaml(read.text);
  if (!parsed.ok || !isPlainObject(parsed.value)) {
    warnings.push(`${OPENAI_YAML} is not a YAML mapping; ignored`);
    return false;
  }
  const policy = parsed.value.policy;
  if (!isPlainObject(policy)) return false;
  const allow = policy.allow_implicit_invocation;
  return typeof allow === "string" && allow.trim().toLowerCase() === "false";
}
