import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpClientFeatures } from "./client-features.js";

/** Headless answer to a form: decline it (default), or accept one whose required fields all have defaults. */
export type HeadlessElicitation = "decline" | "defaults";

/** One form for a person: the server's message and the fields of its schema. */
interface ElicitationForm {
  server: string;
  message: string;
  schema: { properties?: Record<string, FormField>; required?: string[] };
}

export interface FormField {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  format?: string;
}

/** Asks a person to fill a form (full screen or line mode); resolves with their action. */
export type FormAsker = (form: ElicitationForm, signal: AbortSignal) => Promise<ElicitResult>;

export interface ElicitationOptions {
  /** Someone to ask (the terminal, once the session has one); without it, `headless` decides. */
  ask: () => FormAsker | undefined;
  headless: HeadlessElicitation;
  /** URL mode: opens the URL in the browser (or prints it) when someone is there. */
  openUrl?: (url: string, server: string) => Promise<void>;
  notify: (text: string) => void;
}

/**
 * The `elicitation/create` answer of a session. With a terminal, the form is asked (and a URL
 * opened, then accepted once opened); headless nothing waits for a person: a form is declined,
 * or accepted with its defaults when `mcp.elicitation` is "defaults" and every required field
 * has one; a URL is declined. Each headless answer is one line for the user.
 */
export function elicitationHandler(options: ElicitationOptions): NonNullable<McpClientFeatures["elicit"]> {
  return async (server, params, signal) => {
    const ask = options.ask();
    if (params.mode === "url") {
      const url = (params as { url: string }).url;
      if (!ask || !options.openUrl) {
        options.notify(
          `MCP server '${server}' asked you to open ${url} (${params.message}); declined: no one to ask in a headless run.`,
        );
        return { action: "decline" };
      }
      const answer = await ask(
        {
          server,
          message: `${params.message}\n  ${url}`,
          schema: {
            properties: { open: { type: "boolean", title: "Open it in the browser", default: true } },
          },
        },
        signal,
      );
      if (answer.action !== "accept" || answer.content?.open === false) {
        return { action: answer.action === "cancel" ? "cancel" : "decline" };
      }
      await options.openUrl(url, server);
      return { action: "accept" };
    }
    const form: ElicitationForm = {
      server,
      message: params.message,
      schema: (params as { requestedSchema: ElicitationForm["schema"] }).requestedSchema ?? {},
    };
    if (ask) return ask(form, signal);
    const defaults = defaultsOf(form);
    if (options.headless === "defaults" && defaults) {
      options.notify(
        `MCP server '${server}' asked: ${params.message}; answered with the form's defaults (mcp.elicitation: "defaults").`,
      );
      return { action: "accept", content: defaults };
    }
    options.notify(
      `MCP server '${server}' asked: ${params.message}; declined: no one to ask in a headless run.`,
    );
    return { action: "decline" };
  };
}

/** The form's default values, or undefined when a required field has none. */
function defaultsOf(form: ElicitationForm): Record<string, string | number | boolean> | undefined {
  const content: Record<string, string | number | boolean> = {};
  const properties = form.schema.properties ?? {};
  for (const [name, field] of Object.entries(properties)) {
    const value = field.default;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      content[name] = value;
  }
  const missing = (form.schema.required ?? []).filter((name) => !(name in content));
  return missing.length === 0 ? content : undefined;
}

export type { ElicitResult };
