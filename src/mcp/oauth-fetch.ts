import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpNeedsLoginError, type StoredOAuthProvider } from "./oauth-provider.js";

/** Authorizations one request may go through (the first one, then a step-up): then it fails. */
const MAX_AUTHORIZATIONS_PER_REQUEST = 2;

/** What a connection needs to authorize its requests. */
export interface OAuthSession {
  provider: StoredOAuthProvider;
  /** The MCP endpoint: discovery starts from it, tokens are bound to it. */
  serverUrl: string;
  /** How long an authorization took (discovery, registration, tokens), for `--verbose` and bench. */
  onAuthorized?: (ms: number) => void;
}

/**
 * A fetch for the MCP transports that speaks OAuth 2.1 as the MCP authorization spec says: it
 * sends the stored bearer token; on 401 it discovers the authorization server from the
 * `WWW-Authenticate` challenge (or the well-known fallbacks), registers or reuses a client,
 * gets a token (refresh, browser with PKCE, or client credentials) and repeats the request
 * once; on 403 `insufficient_scope` it asks for the challenge's scopes (step-up), at most
 * once per distinct challenge. Authorizations run one at a time; concurrent requests wait.
 * The SDK's auth module is imported on the first 401, never before.
 */
export function oauthFetch(session: OAuthSession, base: FetchLike = fetch): FetchLike {
  let running: Promise<void> | undefined;
  const authorize = (challenge: Challenge): Promise<void> => {
    running ??= runAuthorization(session, challenge, base).finally(() => {
      running = undefined;
    });
    return running;
  };

  return async (input, init) => {
    if (running) await running.catch(() => {});
    if (session.provider.tokenExpired()) await authorize({}).catch(() => {}); // refresh early
    let response = await send(session, base, input, init);
    const seen = new Set<string>();
    for (let round = 0; round < MAX_AUTHORIZATIONS_PER_REQUEST; round++) {
      const challenge = await challengeOf(response);
      if (!challenge) break;
      const key = `${response.status} ${challenge.header}`;
      if (seen.has(key)) break; // the same challenge again: another round would loop
      seen.add(key);
      await response.body?.cancel().catch(() => {});
      await authorize(challenge);
      response = await send(session, base, input, init);
    }
    return response;
  };
}

interface Challenge {
  /** 403 insufficient_scope: more scopes than the token has. */
  stepUp?: boolean;
  header?: string;
  resourceMetadataUrl?: URL;
  scope?: string;
}

/** A response that asks for authorization: 401, or 403 with `insufficient_scope`. */
async function challengeOf(response: Response): Promise<Challenge | undefined> {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const { extractWWWAuthenticateParams } = await import("@modelcontextprotocol/sdk/client/auth.js");
  const params = extractWWWAuthenticateParams(response);
  if (response.status === 403 && params.error !== "insufficient_scope") return undefined;
  return {
    stepUp: response.status === 403,
    header: response.headers.get("www-authenticate") ?? "",
    resourceMetadataUrl: params.resourceMetadataUrl,
    scope: params.scope,
  };
}

async function send(session: OAuthSession, base: FetchLike, input: string | URL, init?: RequestInit) {
  const headers = new Headers(init?.headers);
  const token = session.provider.tokens()?.access_token;
  if (token && !headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
  return base(input, { ...init, headers });
}

async function runAuthorization(session: OAuthSession, challenge: Challenge, base: FetchLike): Promise<void> {
  const { provider, serverUrl } = session;
  const started = performance.now();
  const needsLogin = provider.loginNeeded();
  if (needsLogin) throw needsLogin; // headless with nothing stored: no registration, no browser
  const { auth, discoverOAuthServerInfo } = await import("@modelcontextprotocol/sdk/client/auth.js");
  await provider.prepare();
  let scope = unionOf(challenge.scope, provider.wantedScope());
  if (!provider.machine) {
    // Discovery first (auth() then reuses it), to ask for offline_access where the
    // authorization server offers it: a refresh token spares the user the browser later.
    let discovery = provider.discoveryState();
    if (!discovery) {
      const info = await discoverOAuthServerInfo(serverUrl, {
        resourceMetadataUrl: challenge.resourceMetadataUrl,
        fetchFn: base,
      });
      discovery = { ...info, resourceMetadataUrl: challenge.resourceMetadataUrl?.toString() };
      await provider.saveDiscoveryState(discovery);
    }
    scope = withOfflineAccess(
      scope ?? discovery.resourceMetadata?.scopes_supported?.join(" "),
      discovery.authorizationServerMetadata?.scopes_supported,
    );
  }
  const options = {
    serverUrl,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    scope,
    fetchFn: base,
  };
  let result: string;
  const flow = async () => {
    let outcome = await auth(provider, options);
    if (outcome === "REDIRECT") {
      const authorizationCode = await provider.authorizationCode();
      outcome = await auth(provider, { ...options, authorizationCode });
    }
    return outcome;
  };
  try {
    result = challenge.stepUp ? await provider.stepUp(flow) : await flow();
  } catch (error) {
    if (error instanceof McpNeedsLoginError) {
      // A step-up headless: `hx mcp login` will ask for these scopes.
      if (challenge.scope)
        await provider.rememberWantedScope(unionOf(challenge.scope, provider.wantedScope()) ?? "");
      throw error;
    }
    throw new Error(`authorization failed: ${describe(error)}`);
  }
  if (result !== "AUTHORIZED") throw new Error("authorization did not finish");
  session.onAuthorized?.(performance.now() - started);
}

function unionOf(a: string | undefined, b: string | undefined): string | undefined {
  const scopes = [...new Set(`${a ?? ""} ${b ?? ""}`.split(" ").filter(Boolean))];
  return scopes.length ? scopes.join(" ") : undefined;
}

/** `scope` plus offline_access when the authorization server lists it (SEP-2207); else as it is. */
function withOfflineAccess(
  scope: string | undefined,
  supported: readonly string[] | undefined,
): string | undefined {
  if (!scope || !supported?.includes("offline_access")) return scope;
  const scopes = scope.split(" ").filter(Boolean);
  return scopes.includes("offline_access") ? scope : [...scopes, "offline_access"].join(" ");
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
