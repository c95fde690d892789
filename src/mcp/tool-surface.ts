import type { LoopExtension } from "../agent/extension.js";
import { estimateToolSchemasTokens } from "../context/index.js";
import { whenAborted } from "../core/abort.js";
import { userMessage } from "../core/messages.js";
import type { Tool } from "../tools/tool.js";
import { createCallMcpToolTool } from "./call-tool-tool.js";
import type { McpConnection } from "./connection.js";
import { createLoadMcpToolsTool, type StartingServers } from "./load-tools-tool.js";
import type { McpManager } from "./manager.js";
import { qualifyToolNames, serverPrefix } from "./names.js";
import { createReadMcpResourceTool, type ResourceCheck } from "./read-resource-tool.js";
import { createMcpTool } from "./tool-adapter.js";
import { buildToolCatalog, catalogLines, startingServersSection } from "./tool-catalog.js";
import { type LoadedToolMode, ToolShelf, type ToolSink } from "./tool-shelf.js";

export interface SurfaceSettings {
  defer: "auto" | "always" | "never";
  budgetTokens: number;
  loadedTools: LoadedToolMode;
  toolTimeoutMs: number;
}

/** How the MCP tools reach the model in this session. */
export interface ToolSurface {
  /** For the tools array: the MCP tools themselves, or load_mcp_tools (and call_mcp_tool). */
  tools: Tool[];
  /** The system-prompt section listing catalog-only tools; "" when every schema is sent. */
  catalog: string;
  /** Tools of servers that come up later join the session. */
  extension: LoopExtension;
  /** The session's registry, for tools added during the session. */
  attach(sink: ToolSink): void;
  deferred: boolean;
}

/**
 * Turns the servers that are ready into the session's MCP tools. When their schemas exceed the
 * budget (or `deferTools: always`), the model gets a catalog line per tool and loads what it
 * needs; otherwise the schemas are sent. Servers still starting join later: through the
 * catalog and a note in the conversation when the loader tools are there (so the tools array
 * never changes), else by adding their tools to the registry. The system prompt names the
 * servers still starting, and `load_mcp_tools {names: ["mcp__<server>__*"]}` waits for one, so
 * a task that needs a slow server's tools on its first turn still gets them.
 */
export function buildToolSurface(
  manager: McpManager,
  settings: SurfaceSettings,
  report: (connection: McpConnection) => void,
  /** Checks what `read_mcp_resource` returns (the files of MCP skills against their manifests). */
  checkResource?: ResourceCheck,
): ToolSurface {
  const surfaced = new Set<McpConnection>();
  /** Per server: the tools version and tool names the model was last told about. */
  const told = new Map<McpConnection, { version: number; names: Set<string> }>();
  const toolsOf = (connection: McpConnection): Tool[] => {
    surfaced.add(connection);
    report(connection);
    const definition = manager.states.find((s) => s.connection === connection)?.definition;
    const timeoutMs = definition?.entry.timeout ?? settings.toolTimeoutMs;
    const names = qualifyToolNames(
      connection.name,
      connection.tools.map((t) => t.name),
    );
    told.set(connection, { version: connection.toolsVersion, names: new Set(names) });
    return connection.tools.map((info, i) =>
      createMcpTool({ name: names[i], server: connection.name, info, connection, timeoutMs }),
    );
  };
  const ready = manager.connections().filter((c) => c.status === "ready");
  const startingNames = manager
    .connections()
    .filter((c) => c.status === "starting")
    .map((c) => c.name);
  const starting = startingNames.length > 0;
  const mcpTools = ready.flatMap(toolsOf);
  const schemaTokens = estimateToolSchemasTokens(
    mcpTools.map((t) => ({ name: t.name, description: t.description, parameters: t.jsonSchema ?? {} })),
  );
  const deferred =
    settings.defer === "always" || (settings.defer === "auto" && schemaTokens > settings.budgetTokens);
  const withLoader = deferred || starting;

  let sink: ToolSink | undefined;
  const shelf = new ToolShelf(settings.loadedTools);
  if (deferred) shelf.put(mcpTools);
  const tools: Tool[] = deferred ? [] : [...mcpTools];
  /** A server that came up after the first request: its tools join (the registry, or the shelf). */
  const surfaceLate = (connection: McpConnection): Tool[] => {
    const added = toolsOf(connection);
    if (!withLoader) sink?.add(added);
    else shelf.put(added);
    return added;
  };
  const waiting: StartingServers = {
    has: (server) => manager.connections().some((c) => c.name === server),
    async whenReady(server, signal) {
      const connection = manager.connections().find((c) => c.name === server);
      if (!connection) return `no MCP server named '${server}'.`;
      await Promise.race([connection.whenSettled(), whenAborted(signal)]);
      if (connection.status !== "ready")
        return `MCP server '${server}' ${signal.aborted ? "was still starting when the call was cancelled" : `is not running (${connection.error ?? connection.status})`}.`;
      await connection.listsSettled();
      if (!surfaced.has(connection)) surfaceLate(connection);
      return undefined;
    },
  };
  /**
   * A tool of a server that was still starting, called by name before it was loaded (or even
   * announced): waits for the server (or the turn's cancel), then runs the tool as loaded.
   */
  const lateTool = async (name: string, signal?: AbortSignal): Promise<Tool | undefined> => {
    const server = startingNames.find((candidate) => name.startsWith(serverPrefix(candidate)));
    if (server === undefined) return undefined;
    if (await waiting.whenReady(server, signal ?? new AbortController().signal)) return undefined;
    const tool = shelf.get(name);
    if (tool) shelf.load([tool]);
    return tool;
  };
  if (withLoader) {
    tools.push(createLoadMcpToolsTool(shelf, waiting));
    if (settings.loadedTools === "call") tools.push(createCallMcpToolTool(shelf));
  }
  if (ready.some((c) => c.servesResources) || starting) {
    tools.push(
      createReadMcpResourceTool({
        connections: () => manager.connections().filter((c) => c.status === "ready"),
        check: checkResource,
      }),
    );
  }

  const notes: string[] = [];
  const extension: LoopExtension = {
    name: "mcp-late-servers",
    async beforeModelCall(state) {
      const ready = manager.connections().filter((c) => c.status === "ready");
      await Promise.all(ready.map((c) => c.listsSettled()));
      for (const connection of ready) {
        const before = told.get(connection);
        if (!before || before.version === connection.toolsVersion) continue;
        const tools = toolsOf(connection);
        const added = tools.filter((tool) => !before.names.has(tool.name));
        const now = new Set(tools.map((tool) => tool.name));
        const removed = [...before.names].filter((name) => !now.has(name));
        if (!withLoader) {
          sink?.add(added); // the tools array grows: the cached prefix breaks once
        } else {
          shelf.put(tools, { replace: true });
        }
        if (withLoader && (added.length > 0 || removed.length > 0)) {
          notes.push(
            [
              `MCP server ${connection.name} changed its tools.`,
              ...(added.length
                ? [`New (load them with load_mcp_tools):\n${catalogLines(added).join("\n")}`]
                : []),
              ...(removed.length ? [`No longer offered: ${removed.join(", ")}.`] : []),
            ].join("\n"),
          );
        }
      }
      const late = manager.connections().filter((c) => c.status === "ready" && !surfaced.has(c));
      for (const connection of late) {
        const added = surfaceLate(connection);
        if (added.length === 0 || !withLoader) continue;
        notes.push(
          `MCP server ${connection.name} finished starting. Its tools (load them with load_mcp_tools):\n${catalogLines(added).join("\n")}`,
        );
      }
      // A note goes after a tool result or the user's prompt, never between a call and its result.
      const last = state.conversation.messages.at(-1);
      if (notes.length === 0 || (last?.role !== "tool" && last?.role !== "user")) return;
      state.conversation.append(
        userMessage(`<mcp-update>\n${notes.splice(0).join("\n\n")}\n</mcp-update>`, { kind: "announcement" }),
      );
    },
  };

  const catalog = deferred ? buildToolCatalog(shelf.all(), settings.loadedTools) : "";
  return {
    tools,
    catalog: [catalog, startingServersSection(startingNames)].filter(Boolean).join("\n\n"),
    extension,
    deferred,
    attach(target) {
      sink = target;
      shelf.attach(target);
      if (starting) target.addResolver((name, signal) => lateTool(name, signal));
    },
  };
}
