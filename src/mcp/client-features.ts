import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";

/** One folder the servers may work in (`roots/list`). */
interface McpRoot {
  uri: string;
  name?: string;
}

/**
 * What hx answers when a server asks the client something: each one present is declared as a
 * client capability at `initialize` and gets a request handler; the ones absent are neither.
 */
export interface McpClientFeatures {
  /** `elicitation/create`: a form (or a URL) for the user. */
  elicit?: (server: string, params: ElicitRequestParams, signal: AbortSignal) => Promise<ElicitResult>;
  /** `roots/list`: the workspace and added folders; `onChange` fires `roots/list_changed`. */
  roots?: { list(): McpRoot[]; onChange(listener: () => void): () => void };
  /** `sampling/createMessage`: a model call through the session's model, once the user allows it. */
  sample?: (
    server: string,
    params: CreateMessageRequestParams,
    signal: AbortSignal,
  ) => Promise<CreateMessageResult>;
}

export function clientCapabilities(features: McpClientFeatures | undefined): ClientCapabilities {
  return {
    ...(features?.elicit ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}),
    ...(features?.roots ? { roots: { listChanged: true } } : {}),
    ...(features?.sample ? { sampling: {} } : {}),
  };
}

/** Installs the request handlers of `features` on a client before it connects; returns a cleanup. */
export async function installClientFeatures(
  client: Client,
  server: string,
  features: McpClientFeatures | undefined,
): Promise<() => void> {
  if (!features) return () => {};
  const types = await import("@modelcontextprotocol/sdk/types.js");
  const cleanups: Array<() => void> = [];
  const { elicit, roots, sample } = features;
  if (elicit) {
    client.setRequestHandler(types.ElicitRequestSchema, (request, extra) =>
      elicit(server, request.params, extra.signal),
    );
  }
  if (roots) {
    client.setRequestHandler(types.ListRootsRequestSchema, () => ({ roots: roots.list() }));
    cleanups.push(roots.onChange(() => void client.sendRootsListChanged().catch(() => {})));
  }
  if (sample) {
    client.setRequestHandler(types.CreateMessageRequestSchema, (request, extra) =>
      sample(server, request.params, extra.signal),
    );
  }
  return () => {
    for (const cleanup of cleanups) cleanup();
  };
}
