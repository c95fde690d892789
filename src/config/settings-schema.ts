/**
 * The schema of hx's settings files (`~/.hx/settings.json`, `.hx/settings.json`,
 * `.hx/settings.local.json`): every key hx reads, with what it must hold. A feature that adds
 * a key adds it to `settingsSchema` below (and to `PROTECTIVE_KEYS` when wrong values would
 * mean less protection); `validateSettings` reports wrong types and unknown keys from it.
 *
 * Each value's error says what was expected in words (`must be a list of rules, got a
 * string`), see `expected()`.
 */
import * as z from "zod";
import { MIN_CONTEXT_WINDOW } from "../context/windows.js";
import { HOOK_EVENTS } from "../hooks/events.js";
import { compileMatcher } from "../hooks/matcher.js";
import { parseServerEntries } from "../mcp/config.js";
import { PERMISSION_MODES } from "../permissions/modes.js";
import { parseRule } from "../permissions/rules.js";
import { providerNames } from "../providers/registry.js";
import { SANDBOX_MODES } from "../sandbox/types.js";
import { expected } from "../text/schema-messages.js";

const text = (what: string) => z.string({ error: expected(what) });
const flag = () => z.boolean({ error: expected("true or false") });

/** A whole number of at least `min`. */
function wholeNumber(what: string, min = 1) {
  return z.number({ error: expected(what) }).refine((value) => Number.isInteger(value) && value >= min, {
    error: expected(what),
  });
}

/** A list of permission rules; each must parse (a broken rule is an error, never a silent gap). */
const rules = z.array(
  text('a rule such as "bash(git push*)"').superRefine((value, ctx) => {
    const parsed = parseRule(value);
    if ("error" in parsed) ctx.addIssue({ code: "custom", message: parsed.error, input: value });
  }),
  { error: expected('a list of rules such as ["bash(git push*)"]') },
);

const permissions = z.object(
  {
    defaultMode: z
      .enum(PERMISSION_MODES, { error: expected(`one of ${PERMISSION_MODES.join(", ")}`) })
      .optional(),
    allow: rules.optional(),
    ask: rules.optional(),
    deny: rules.optional(),
    /** Let read-only commands (ls, cat, git status, …) inside the workspace run without a rule (default true). */
    readOnlyCommands: flag().optional(),
  },
  { error: expected("an object with allow, ask, deny, defaultMode and readOnlyCommands") },
);

/**
 * One hook. hx runs `"type": "command"` hooks; Claude Code's other kinds (`prompt`, `agent`)
 * are accepted so a copied file loads, and skipped with a warning (hooks/registry.ts).
 */
const commandHook = z
  .object(
    {
      type: text('"command"'),
      command: text("a shell command").optional(),
      /** Seconds; default 60. */
      timeout: z
        .number({ error: expected("a number of seconds") })
        .refine((value) => value > 0, { error: expected("a number of seconds above 0") })
        .optional(),
      /** Claude Code's `prompt` and `agent` hooks; not run by hx. */
      prompt: text("a prompt").optional(),
      model: text("a model name").optional(),
      /** Claude Code's spinner text and run-in-background flags; accepted, not used. */
      statusMessage: text("a message").optional(),
      async: flag().optional(),
      once: flag().optional(),
    },
    { error: expected('a hook such as { "type": "command", "command": "./check.sh" }') },
  )
  .refine((hook) => hook.type !== "command" || (hook.command ?? "").trim() !== "", {
    error: "a command hook needs a non-empty command",
    path: ["command"],
  });

function hookGroups() {
  const matcher = text("a tool name, `*` or a regular expression").superRefine((value, ctx) => {
    const compiled = compileMatcher(value);
    if (typeof compiled !== "function")
      ctx.addIssue({ code: "custom", message: compiled.error, input: value });
  });
  return z.array(
    z.object(
      {
        /** A tool name, `*`, or alternatives `write_file|edit_file`. Empty or missing = every tool. */
        matcher: matcher.optional(),
        hooks: z.array(commandHook, { error: expected("a list of hooks") }),
      },
      { error: expected('an object such as { "matcher": "bash", "hooks": [...] }') },
    ),
    { error: expected('a list such as [{ "matcher": "bash", "hooks": [...] }]') },
  );
}

/** Every Claude Code event is a known key (hx warns about the ones it never fires). */
const hooks = z.object(
  Object.fromEntries(HOOK_EVENTS.map((event) => [event, hookGroups().optional()])) as {
    [E in (typeof HOOK_EVENTS)[number]]: z.ZodOptional<ReturnType<typeof hookGroups>>;
  },
  { error: expected("an object of hook events such as PreToolUse") },
);

const skills = z.object(
  {
    /** Extra folders to search for skills. */
    paths: z.array(text("a folder path"), { error: expected("a list of folder paths") }).optional(),
    /** Catalog budget as a share of the context window (0.02 = 2%), or an absolute char count. */
    catalogBudget: z
      .number({ error: expected("a number (0.02 = 2% of the window, or characters)") })
      .refine((value) => value >= 0, { error: expected("a number of 0 or more") })
      .optional(),
    /** Watch the skill folders and tell the model about added, removed and changed skills (default true). */
    watch: z.boolean({ error: expected("true or false") }).optional(),
  },
  { error: expected("an object with paths, catalogBudget and watch") },
);

/** The OS sandbox around bash (docs/sandbox.md). */
const sandbox = z.object(
  {
    mode: z.enum(SANDBOX_MODES, { error: expected(`one of ${SANDBOX_MODES.join(", ")}`) }).optional(),
    /** Let sandboxed commands reach the network: all of it, or only listed hosts through hx's proxy. */
    network: z
      .union(
        [
          flag(),
          z.object(
            {
              allowedDomains: z
                .array(text("a host name"), { error: expected("a list of host names") })
                .optional(),
              deniedDomains: z
                .array(text("a host name"), { error: expected("a list of host names") })
                .optional(),
            },
            { error: expected("an object with allowedDomains and deniedDomains") },
          ),
        ],
        { error: expected('true, false, or {"allowedDomains": [...], "deniedDomains": [...]}') },
      )
      .optional(),
    /** More folders commands may write (absolute, `~/...` or relative to the workspace). */
    writablePaths: z.array(text("a folder path"), { error: expected("a list of folder paths") }).optional(),
    /** Refuse commands when the sandbox cannot start. */
    required: flag().optional(),
  },
  { error: expected("an object with mode, network, writablePaths and required") },
);

/** What commands' environment holds (Codex: `shell_environment_policy`). */
const shell = z.object(
  {
    env: z
      .object(
        {
          /** Secret-looking variables (`*_API_KEY`, `*_TOKEN`, ...) to pass to commands and hooks anyway. */
          passthrough: z
            .array(text("a variable name"), {
              error: expected('a list of variable names such as ["GITHUB_TOKEN"]'),
            })
            .optional(),
        },
        { error: expected("an object with passthrough") },
      )
      .optional(),
  },
  { error: expected("an object with env") },
);

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

/** `mcpServers`: each entry as in `.mcp.json` (see src/mcp/config.ts for the shape and its messages). */
const mcpServers = z
  .record(z.string(), z.unknown(), { error: expected("an object of MCP servers by name") })
  .superRefine((value, ctx) => {
    for (const diagnostic of parseServerEntries(value, { file: "", scope: "user" }).diagnostics) {
      ctx.addIssue({
        code: "custom",
        message: diagnostic.message,
        path: diagnostic.keyPath?.split(".").slice(1),
      });
    }
  });

const mcp = z.object(
  {
    /** `auto`: a catalog instead of schemas when they exceed the budget; `always`; `never`. */
    deferTools: z.enum(["auto", "always", "never"], { error: expected("auto, always or never") }).optional(),
    /** Share of the context window (default 0.1), or tokens when above 1. */
    toolBudget: z
      .number({ error: expected("a share of the window such as 0.1, or tokens") })
      .refine((value) => value > 0, { error: expected("a number above 0") })
      .optional(),
    /** How long the first request waits for servers still starting, in ms (default 3000). */
    startupWait: wholeNumber("a whole number of milliseconds", 0).optional(),
    /** Per-call timeout in ms (default 300000; a server's own `timeout` wins). */
    toolTimeout: wholeNumber("a whole number of milliseconds").optional(),
    /** How a loaded tool is called: through call_mcp_tool (default) or added to the tools array. */
    loadedTools: z.enum(["call", "tools"], { error: expected("call or tools") }).optional(),
    /** Run stdio servers in the OS sandbox (default true; `sandbox.mode` off turns it off too). */
    sandbox: flag().optional(),
    /** Let sandboxed stdio servers reach the network (default true). */
    sandboxNetwork: flag().optional(),
    /** The command that opens OAuth authorization URLs (HX_BROWSER wins); lets headless runs authorize. */
    browser: text('a command, e.g. "firefox"').optional(),
    /** Headless answer to a server's form: decline (default), or its defaults when every required field has one. */
    elicitation: z.enum(["decline", "defaults"], { error: expected("decline or defaults") }).optional(),
    /** Headless answer to a server's sampling request: refuse (default) or allow. */
    sampling: z.enum(["refuse", "allow"], { error: expected("refuse or allow") }).optional(),
    /** The largest message a stdio server may send, in bytes (default 10 MiB). */
    maxMessageBytes: wholeNumber("a whole number of bytes", 1024).optional(),
  },
  {
    error: expected(
      "an object with deferTools, toolBudget, startupWait, toolTimeout, loadedTools, sandbox, sandboxNetwork, browser, elicitation, sampling and maxMessageBytes",
    ),
  },
);

/** Every key hx reads from a settings file. Add a feature's key here. */
export const settingsSchema = z.object({
  /** Editors' JSON-schema hint; ignored. */
  $schema: text("a URL").optional(),
  provider: z
    .enum(providerNames() as [string, ...string[]], {
      error: expected(`one of ${providerNames().join(", ")}`),
    })
    .optional(),
  model: text("a model name").optional(),
  baseURL: text("an http(s) URL").optional(),
  maxTurns: wholeNumber("a positive whole number").optional(),
  thinking: flag().optional(),
  contextWindow: wholeNumber(
    `a whole number of tokens, at least ${MIN_CONTEXT_WINDOW}`,
    MIN_CONTEXT_WINDOW,
  ).optional(),
  verbose: flag().optional(),
  /** Print the seed's `[HOOK] ...` lines (also on with --verbose). */
  logHooks: flag().optional(),
  /** Environment variables set for commands and hooks (Claude Code's `env`). */
  env: z
    .record(z.string(), text("a string"), {
      error: expected('an object of names and values such as {"NODE_ENV": "test"}'),
    })
    .optional(),
  /** How many times Stop hooks may send the model back to work in one prompt (default 100). */
  maxStopHookContinuations: wholeNumber("a whole number of continuations", 0).optional(),
  permissions: permissions.optional(),
  hooks: hooks.optional(),
  skills: skills.optional(),
  sandbox: sandbox.optional(),
  shell: shell.optional(),
  /** Model name (or prefix) → list price per million tokens, over hx's table; for the status line and /cost. */
  prices: z.record(z.string(), modelPrice, { error: expected("an object of model name → price") }).optional(),
  /** MCP servers by name, in `.mcp.json`'s shape (docs/mcp.md). */
  mcpServers: mcpServers.optional(),
  mcp: mcp.optional(),
  /**
   * The task board tools (task_create, task_update, task_list, task_get). auto (default):
   * offered when the project's board has tasks or someone can answer questions (an
   * interactive session), so one-shot scripted runs keep their first request small.
   */
  /** Snapshots of the project around calls that may change files, for /rewind (default true). */
  checkpoints: flag().optional(),
  taskBoard: z.enum(["auto", "on", "off"], { error: expected("auto, on or off") }).optional(),
  /** Claude Code's keys for `.mcp.json` approval; honoured from the user settings only. */
  enableAllProjectMcpServers: flag().optional(),
  enabledMcpjsonServers: z
    .array(text("a server name"), { error: expected("a list of server names") })
    .optional(),
  disabledMcpjsonServers: z
    .array(text("a server name"), { error: expected("a list of server names") })
    .optional(),
});

/**
 * Keys where an unknown key is an error, not a warning: a misspelled `deny` or `PreToolUse`
 * (or a top-level key that looks like a misspelling of one of these) would run hx with less
 * protection than the user wrote. Add a key here when its absence weakens protection.
 */
export const PROTECTIVE_KEYS: ReadonlySet<string> = new Set(["permissions", "hooks", "sandbox"]);

/** What a settings file may hold, after validation. */
export type Settings = z.infer<typeof settingsSchema>;
export type PermissionSettings = NonNullable<Settings["permissions"]>;
export type HookSettings = NonNullable<Settings["hooks"]>;
export type HookMatcher = NonNullable<HookSettings["PreToolUse"]>[number];
export type McpSettings = NonNullable<Settings["mcp"]>;
