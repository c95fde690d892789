/**
 * The MCP keys of a settings file (`mcpServers`, `mcp`, Claude Code's `.mcp.json` approval
 * keys): this folder's fragment of the settings schema, composed in src/settings/. Apart from
 * ./settings.ts because checking a server entry needs ./config.ts (and zod with it).
 */
import { schemaParts, type Zod } from "../config/schema-parts.js";
import { expected } from "../text/schema-messages.js";
import { parseServerEntries } from "./config.js";

/** `mcpServers`: each entry as in `.mcp.json` (see ./config.ts for the shape and its messages). */
export function mcpServersSettingsSchema(z: Zod) {
  return z
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
}

/** `mcp: {...}`: how servers' tools reach the model and what servers may do unasked. */
export function mcpSettingsSchema(z: Zod) {
  const { text, flag, wholeNumber } = schemaParts(z);
  return z.object(
    {
      /** `auto`: a catalog instead of schemas when they exceed the budget; `always`; `never`. */
      deferTools: z
        .enum(["auto", "always", "never"], { error: expected("auto, always or never") })
        .optional(),
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
}

/** Claude Code's keys for `.mcp.json` approval; honoured from the user settings only. */
export function mcpApprovalSettingsSchema(z: Zod) {
  const { text, flag } = schemaParts(z);
  const names = () => z.array(text("a server name"), { error: expected("a list of server names") });
  return {
    enableAllProjectMcpServers: flag(),
    enabledMcpjsonServers: names(),
    disabledMcpjsonServers: names(),
  };
}
