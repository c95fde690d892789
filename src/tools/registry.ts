import type { ZodType } from "zod";
import { errorMessage } from "../core/error-message.js";
import type { ToolCall } from "../core/messages.js";
import { ToolError, type ToolOutput, type ToolSchema, toolError, toolErrorText } from "../core/tool.js";
import { toParametersSchema } from "./json-schema.js";
import type { Tool, ToolContext, Zod } from "./tool.js";

/** A call whose arguments parsed and matched the tool's schema. */
export interface PreparedCall {
  ok: true;
  call: ToolCall;
  tool: Tool;
  args: unknown;
  /** The call as the model made it, when an extension replaced its arguments. */
  original?: PreparedCall;
}

/** A call that cannot run; `error` is the tool result the model will read. */
export interface RejectedCall {
  ok: false;
  call: ToolCall;
  error: string;
}

/**
 * The dispatch table: tool name → tool. The loop asks it; it never names a tool itself.
 *
 * zod is loaded only when it is needed: to check a call's arguments (`prepare`), or to derive
 * the JSON Schema of a tool that brings none (`ready`). The built-in tools of a built hx bring
 * theirs (computed at build time), so a run that calls no tool never loads zod.
 */
/**
 * Finds a tool the registry does not hold: one of an MCP server that was still starting when
 * the first request went out (it waits for the server, until `signal` cancels the turn).
 * Undefined: no such tool.
 */
export type ToolResolver = (name: string, signal?: AbortSignal) => Promise<Tool | undefined>;

export class ToolRegistry {
  private readonly byName = new Map<string, Tool>();
  private readonly resolvers: ToolResolver[] = [];
  /** JSON Schemas derived from `parameters`, for tools without `jsonSchema` (see ready()). */
  private readonly derived = new Map<Tool, Record<string, unknown>>();
  /** Each tool's zod schema, built on first use. */
  private readonly checkers = new Map<Tool, ZodType>();
  private cachedSchemas?: ToolSchema[];
  private cachedKey?: string;

  constructor(tools: Iterable<Tool>) {
    this.add(tools);
  }

  /**
   * Adds tools that became available during the session (servers that start late). The next
   * request sends the longer list; the cached prefix breaks once.
   */
  add(tools: Iterable<Tool>): void {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`Tool '${tool.name}' is registered twice`);
      this.byName.set(tool.name, tool);
      this.cachedSchemas = undefined;
    }
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  /** Asked, in order, for a called name the registry does not hold. */
  addResolver(resolver: ToolResolver): void {
    this.resolvers.push(resolver);
  }

  private async resolve(name: string, signal?: AbortSignal): Promise<Tool | undefined> {
    for (const resolver of this.resolvers) {
      if (signal?.aborted) return undefined;
      const tool = await resolver(name, signal);
      if (tool) return tool;
    }
    return undefined;
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /**
   * Derives the JSON Schema of every tool that brings none (loading zod); a no-op when each
   * has one. Await it after adding tools and before `schemas()`: the loop does before every
   * request, the session once it is built.
   */
  async ready(): Promise<void> {
    const missing = [...this.byName.values()].filter(
      (t) => t.jsonSchema === undefined && !this.derived.has(t),
    );
    if (missing.length === 0) return;
    const zod = await loadZod();
    for (const tool of missing) this.derived.set(tool, toParametersSchema(this.checker(tool, zod), zod));
    this.cachedSchemas = undefined;
  }

  /**
   * Schemas of the tools offered now, in registration order; computed once per set of offered
   * tools, so every request sends identical bytes while it stays the same.
   */
  schemas(): ToolSchema[] {
    const offered = [...this.byName.values()].filter((tool) => tool.offered?.() ?? true);
    const key = offered.map((tool) => tool.name).join("\n");
    if (this.cachedSchemas && this.cachedKey === key) return this.cachedSchemas;
    this.cachedKey = key;
    this.cachedSchemas = offered.map((tool) => {
      const parameters = tool.jsonSchema ?? this.derived.get(tool);
      if (!parameters)
        throw new Error(`ToolRegistry: await ready() before schemas() (${tool.name} has no schema yet)`);
      return { name: tool.name, description: tool.description, parameters };
    });
    return this.cachedSchemas;
  }

  /** Looks the tool up (a resolver's wait ends with `signal`) and checks the arguments; never throws. */
  async prepare(call: ToolCall, signal?: AbortSignal): Promise<PreparedCall | RejectedCall> {
    const tool = this.byName.get(call.name) ?? (await this.resolve(call.name, signal));
    if (!tool && signal?.aborted) {
      // Cancelled while a resolver waited (a server still starting): not an unknown name.
      return {
        ok: false,
        call,
        error: toolErrorText(`the call of ${call.name} was cancelled before the tool was ready.`),
      };
    }
    if (!tool) {
      return {
        ok: false,
        call,
        error: toolErrorText(`Unknown tool '${call.name}'. Available tools: ${this.names().join(", ")}`),
      };
    }
    let raw: unknown;
    try {
      raw = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
    } catch (error) {
      return {
        ok: false,
        call,
        error: toolErrorText(
          `the arguments for ${tool.name} are not valid JSON (${errorMessage(error)}). Send a JSON object matching the tool's schema. Received: ${preview(call.arguments)}`,
        ),
      };
    }
    const zod = await loadZod();
    const checked = this.check(call, tool, raw, call.arguments, zod);
    if (!checked.ok || !tool.route) return checked;
    const routed = tool.route(checked.args);
    if (typeof routed === "string") return { ok: false, call, error: routed };
    return this.check(call, routed.tool, routed.arguments, JSON.stringify(routed.arguments) ?? "", zod);
  }

  /** Runs a prepared call; an exception becomes an error result. */
  async run(prepared: PreparedCall, ctx: ToolContext): Promise<ToolOutput> {
    try {
      const output = await prepared.tool.execute(prepared.args, ctx);
      return typeof output === "string" ? { content: output } : output;
    } catch (error) {
      if (ctx.signal.aborted) return toolError("the call was cancelled by the user.");
      // A ToolError is written for the model (and carries the error prefix); anything
      // else is an unexpected failure, shown as its message.
      return error instanceof ToolError
        ? { content: error.message, isError: true }
        : toolError(errorMessage(error));
    }
  }

  private check(
    call: ToolCall,
    tool: Tool,
    raw: unknown,
    received: string,
    zod: Zod,
  ): PreparedCall | RejectedCall {
    const parsed = this.checker(tool, zod).safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map((issue) => `${issue.path.length ? issue.path.join(".") : "(arguments)"}: ${issue.message}`)
        .join("; ");
      return {
        ok: false,
        call,
        error: toolErrorText(
          `invalid arguments for ${tool.name}: ${problems}. Rewrite the call so it matches the schema. Received: ${preview(received)}`,
        ),
      };
    }
    return { ok: true, call, tool, args: parsed.data };
  }

  private checker(tool: Tool, zod: Zod): ZodType {
    let schema = this.checkers.get(tool);
    if (!schema) {
      schema = tool.parameters(zod);
      this.checkers.set(tool, schema);
    }
    return schema;
  }
}

/** zod, for tools: its own chunk in the bundle, loaded by the first call that needs it. */
function loadZod(): Promise<Zod> {
  return import("./zod-for-tools.js");
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
