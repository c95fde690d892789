import type { Tool } from "../tools/tool.js";

/**
 * How a tool the model loaded becomes callable (see docs/mcp.md, "Two-layer loading"):
 * - `call`: its schema arrives as the load result and the model calls it through the stable
 *   `call_mcp_tool`; the tools array never changes, so the cached prefix holds.
 * - `tools`: it is added to the tools array; the request changes before the history, so the
 *   provider's cache is lost once per load.
 */
export type LoadedToolMode = "call" | "tools";

/** Where loaded tools go in `tools` mode: the session's tool registry. */
export interface ToolSink {
  add(tools: Iterable<Tool>): void;
  /** Asked for a called name it does not hold (see ToolResolver in tools/registry.ts). */
  addResolver(resolver: (name: string, signal?: AbortSignal) => Promise<Tool | undefined>): void;
}

/**
 * The MCP tools that are not in the tools array (their schemas cost too much): the model sees
 * a catalog line for each and loads what it needs. One shelf per session; every MCP tool on
 * it stays reachable, and a loaded tool stays loaded for the session.
 */
export class ToolShelf {
  private readonly byName = new Map<string, Tool>();
  private readonly loaded = new Set<string>();
  private sink?: ToolSink;

  constructor(readonly mode: LoadedToolMode) {}

  /**
   * Tools from a server (also one that came up late). Names are unique across servers;
   * `replace` (a server's re-listed tools) takes the new schema of a name already here.
   */
  put(tools: Iterable<Tool>, options: { replace?: boolean } = {}): void {
    for (const tool of tools) {
      if (options.replace || !this.byName.has(tool.name)) this.byName.set(tool.name, tool);
    }
  }

  /** `tools` mode: the registry loaded tools are added to. */
  attach(sink: ToolSink): void {
    this.sink = sink;
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name) ?? this.byName.get(findFolded(this.byName, name) ?? "");
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  all(): Tool[] {
    return [...this.byName.values()];
  }

  isLoaded(name: string): boolean {
    return this.loaded.has(name);
  }

  /** Marks tools loaded; in `tools` mode, adds the ones not loaded before to the registry. */
  load(tools: readonly Tool[]): void {
    const fresh = tools.filter((tool) => !this.loaded.has(tool.name));
    for (const tool of fresh) this.loaded.add(tool.name);
    if (this.mode === "tools" && fresh.length > 0) this.sink?.add(fresh);
  }

  loadedNames(): string[] {
    return [...this.loaded];
  }
}

function findFolded(map: ReadonlyMap<string, Tool>, name: string): string | undefined {
  const lower = name.toLowerCase();
  const matches = [...map.keys()].filter((key) => key.toLowerCase() === lower);
  return matches.length === 1 ? matches[0] : undefined;
}
