import * as z from "zod";
import { errorMessage } from "../core/error-message.js";
import type { ToolCall } from "../core/messages.js";
import { ToolError, type ToolOutput, type ToolSchema } from "../core/tool.js";
import type { Tool, ToolContext } from "./tool.js";

/** A call whose arguments parsed and matched the tool's schema. */
export interface PreparedCall {
  ok: true;
  call: ToolCall;
  tool: Tool;
  args: unknown;
}

/** A call that cannot run; `error` is the tool result the model will read. */
export interface RejectedCall {
  ok: false;
  call: ToolCall;
  error: string;
}

/** The dispatch table: tool name → tool. The loop asks it; it never names a tool itself. */
export class ToolRegistry {
  private readonly byName = new Map<string, Tool>();
  private cachedSchemas?: ToolSchema[];

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

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** Schemas in registration order; computed once so every request sends identical bytes. */
  schemas(): ToolSchema[] {
    this.cachedSchemas ??= [...this.byName.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.jsonSchema ?? toParametersSchema(tool.parameters),
    }));
    return this.cachedSchemas;
  }

  /** Looks the tool up and checks the arguments; never throws. */
  prepare(call: ToolCall): PreparedCall | RejectedCall {
    const tool = this.byName.get(call.name);
    if (!tool) {
      return {
        ok: false,
        call,
        error: `Error: Unknown tool '${call.name}'. Available tools: ${this.names().join(", ")}`,
      };
    }
    let raw: unknown;
    try {
      raw = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
    } catch (error) {
      return {
        ok: false,
        call,
        error: `Error: the arguments for ${tool.name} are not valid JSON (${errorMessage(error)}). Send a JSON object matching the tool's schema. Received: ${preview(call.arguments)}`,
      };
    }
    const checked = checkArguments(call, tool, raw, call.arguments);
    if (!checked.ok || !tool.route) return checked;
    const routed = tool.route(checked.args);
    if (typeof routed === "string") return { ok: false, call, error: routed };
    return checkArguments(call, routed.tool, routed.arguments, JSON.stringify(routed.arguments) ?? "");
  }

  /** Runs a prepared call; an exception becomes an error result. */
  async run(prepared: PreparedCall, ctx: ToolContext): Promise<ToolOutput> {
    try {
      const output = await prepared.tool.execute(prepared.args, ctx);
      return typeof output === "string" ? { content: output } : output;
    } catch (error) {
      if (ctx.signal.aborted) return { content: "Error: the call was cancelled by the user.", isError: true };
      // A ToolError is written for the model (and carries its "Error: " prefix); anything
      // else is an unexpected failure, shown as its message.
      const content = error instanceof ToolError ? error.message : `Error: ${errorMessage(error)}`;
      return { content, isError: true };
    }
  }
}

function checkArguments(
  call: ToolCall,
  tool: Tool,
  raw: unknown,
  received: string,
): PreparedCall | RejectedCall {
  const parsed = tool.parameters.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.length ? issue.path.join(".") : "(arguments)"}: ${issue.message}`)
      .join("; ");
    return {
      ok: false,
      call,
      error: `Error: invalid arguments for ${tool.name}: ${problems}. Rewrite the call so it matches the schema. Received: ${preview(received)}`,
    };
  }
  return { ok: true, call, tool, args: parsed.data };
}

/**
 * The JSON Schema the model reads. zod marks every integer with JavaScript's safe-integer
 * bounds, and `min(1)` strings with `minLength: 1`; those say nothing a model needs to call
 * the tool right and cost tokens on every request, so they are dropped (the zod schema still
 * checks them).
 */
function toParametersSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    target: "draft-7",
    io: "input",
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.type === "string" && jsonSchema.minLength === 1) delete jsonSchema.minLength;
    },
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
