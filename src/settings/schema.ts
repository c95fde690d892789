/**
 * The schema of hx's settings files (`~/.hx/settings.json`, `.hx/settings.json`,
 * `.hx/settings.local.json`): every key hx reads, composed from the fragments each feature
 * folder owns (`permissions/settings.ts`, `hooks/settings.ts`, …). A feature that adds a key
 * writes its schema beside its code and lists it here (and in PROTECTIVE_KEYS when wrong
 * values would mean less protection, and in trust/restrict-settings.ts, whose allow-list
 * drops an unknown key in an untrusted folder). Loaded only to check a file (zod).
 */
import * as z from "zod";
import { checkpointSettingsSchema } from "../checkpoints/index.js";
import { schemaParts } from "../config/schema-parts.js";
import type { KeyPolicy } from "../config/validate-settings.js";
import { contextWindowSettingsSchema } from "../context/index.js";
import {
  hookSettingsSchema,
  logHooksSchema,
  maxStopHookContinuationsSchema,
  newerHookEvent,
} from "../hooks/index.js";
import {
  mcpApprovalSettingsSchema,
  mcpServersSettingsSchema,
  mcpSettingsSchema,
} from "../mcp/settings-schema.js";
import { permissionSettingsSchema } from "../permissions/index.js";
import { providerSettingsSchema } from "../providers/settings.js";
import { sandboxSettingsSchema } from "../sandbox/index.js";
import { envSettingsSchema, shellSettingsSchema } from "../secrets/settings.js";
import { skillSettingsSchema } from "../skills/index.js";
import { taskBoardSettingsSchema } from "../tasks/index.js";
import { expected } from "../text/schema-messages.js";

const { text, flag, wholeNumber } = schemaParts(z);

const dollars = (what: string) =>
  z.number({ error: expected(what) }).refine((value) => Number.isFinite(value) && value >= 0, {
    error: expected(what),
  });

/** A model's list price in dollars per million tokens (see src/cli/prices.ts). */
const modelPrice = z.object(
  {
    input: dollars("dollars per million prompt tokens"),
    /** A prompt-cache hit; default: the input price. */
    cachedInput: dollars("dollars per million cached prompt tokens").optional(),
    cacheWrite: dollars("dollars per million tokens written to the cache").optional(),
    output: dollars("dollars per million output tokens"),
  },
  { error: expected('a price such as { "input": 0.14, "cachedInput": 0.0028, "output": 0.28 }') },
);

const model = providerSettingsSchema(z);
const mcpApproval = mcpApprovalSettingsSchema(z);

/** Every key hx reads from a settings file, in the order `known keys:` lists them. */
export const settingsSchema = z.object({
  /** Editors' JSON-schema hint; ignored. */
  $schema: text("a URL").optional(),
  provider: model.provider.optional(),
  model: model.model.optional(),
  baseURL: model.baseURL.optional(),
  maxTurns: wholeNumber("a positive whole number").optional(),
  thinking: model.thinking.optional(),
  contextWindow: contextWindowSettingsSchema(z).optional(),
  verbose: flag().optional(),
  logHooks: logHooksSchema(z).optional(),
  env: envSettingsSchema(z).optional(),
  maxStopHookContinuations: maxStopHookContinuationsSchema(z).optional(),
  permissions: permissionSettingsSchema(z).optional(),
  hooks: hookSettingsSchema(z).optional(),
  skills: skillSettingsSchema(z).optional(),
  sandbox: sandboxSettingsSchema(z).optional(),
  shell: shellSettingsSchema(z).optional(),
  /** Model name (or prefix) → list price per million tokens, over hx's table; for the status line and /cost. */
  prices: z.record(z.string(), modelPrice, { error: expected("an object of model name → price") }).optional(),
  /** MCP servers by name, in `.mcp.json`'s shape (docs/mcp.md). */
  mcpServers: mcpServersSettingsSchema(z).optional(),
  mcp: mcpSettingsSchema(z).optional(),
  checkpoints: checkpointSettingsSchema(z).optional(),
  taskBoard: taskBoardSettingsSchema(z).optional(),
  enableAllProjectMcpServers: mcpApproval.enableAllProjectMcpServers.optional(),
  enabledMcpjsonServers: mcpApproval.enabledMcpjsonServers.optional(),
  disabledMcpjsonServers: mcpApproval.disabledMcpjsonServers.optional(),
});

/**
 * Keys where an unknown key is an error, not a warning: a misspelled `deny` or `PreToolUse`
 * (or a top-level key that looks like a misspelling of one of these) would run hx with less
 * protection than the user wrote. Add a key here when its absence weakens protection.
 */
export const SETTINGS_KEY_POLICY: KeyPolicy = {
  protective: new Set(["permissions", "hooks", "sandbox"]),
  newerNames: { hooks: newerHookEvent },
};

/** What a settings file may hold, after validation. */
export type Settings = z.infer<typeof settingsSchema>;
