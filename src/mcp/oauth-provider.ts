import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AddClientAuthentication, OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthOptions } from "./config.js";
import type { LoopbackCallback } from "./oauth-callback.js";
import type { AuthPart, AuthStore } from "./oauth-store.js";

/** How long a browser authorization may take before hx gives up (5 minutes). */
const AUTHORIZATION_WAIT_MS = 300_000;

/** Whether a person (or a configured browser command) can authorize now, and how the URL is shown. */
export interface Authorizer {
  /** false: a headless run without a browser command; the server needs `hx mcp login`. */
  readonly canAuthorize: boolean;
  /** Opens the authorization URL in the browser (or the configured command), or prints it. */
  open(url: string, server: string): Promise<void>;
}

/** An authorization that needs a person: the run cannot go on without `hx mcp login NAME`. */
export class McpNeedsLoginError extends Error {
  constructor(
    readonly server: string,
    why: string,
  ) {
    super(`MCP server '${server}' ${why}: run hx mcp login ${server}`);
    this.name = "McpNeedsLoginError";
  }
}

/**
 * The SDK's `OAuthClientProvider` for one remote server, backed by the user's token file:
 * authorization code with PKCE through the browser and a 127.0.0.1 callback (dynamic client
 * registration, a client ID metadata document, or a pre-registered client), or client
 * credentials (`"grant": "client_credentials"`, with a secret or a private key) for machines.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  private verifier?: string;
  private expectedState?: string;
  private pendingCode?: Promise<string>;
  private redirect?: string;

  constructor(
    private readonly server: string,
    private readonly key: string,
    private readonly url: string,
    private readonly options: McpOAuthOptions,
    private readonly store: AuthStore,
    private readonly authorizer: Authorizer,
    private readonly callback: LoopbackCallback,
    /** `hx mcp login`: authorize afresh; the stored tokens are not used (nor lost) until new ones come. */
    private fresh = false,
  ) {}

  /** Scopes a step-up needed that a headless run could not get (asked for at the next login). */
  wantedScope(): string | undefined {
    return this.store.read(this.key)?.wantedScope;
  }

  async rememberWantedScope(scope: string): Promise<void> {
    await this.store.update(this.key, this.url, (record) => {
      record.wantedScope = scope;
    });
  }

  /** No browser: client credentials, or an identity provider's assertion (jwt_bearer). */
  get machine(): boolean {
    return this.options.grant === "client_credentials" || this.options.grant === "jwt_bearer";
  }

  /** Whether there is anything to authorize with without a person: tokens or machine credentials. */
  hasCredentials(): boolean {
    return this.machine || this.store.read(this.key)?.tokens !== undefined;
  }

  /** Why this run cannot authorize (headless, nothing stored): the one line to show; else undefined. */
  loginNeeded(): McpNeedsLoginError | undefined {
    if (this.authorizer.canAuthorize || (this.hasCredentials() && !this.fresh)) return undefined;
    return new McpNeedsLoginError(this.server, "needs authorization");
  }

  /** Starts the 127.0.0.1 callback, on the port the client was registered with when there is one. */
  async prepare(): Promise<void> {
    if (this.machine || this.redirect) return;
    const registered = (this.store.read(this.key)?.client?.redirect_uris as string[] | undefined)?.[0];
    const preferred = this.options.callbackPort ?? (registered ? Number(new URL(registered).port) : 0);
    this.redirect = await this.callback.listen(preferred);
    if (registered && registered !== this.redirect && !this.options.clientId) {
      await this.store.forget(this.key, ["client"]); // registered for another port: register again
    }
  }

  get redirectUrl(): string | undefined {
    if (this.machine) return undefined;
    return this.redirect ?? `http://127.0.0.1:${this.options.callbackPort ?? 0}/callback`;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    if (this.machine) {
      return {
        client_name: "hx",
        redirect_uris: [],
        grant_types: ["client_credentials"],
        token_endpoint_auth_method: this.options.privateKeyFile ? "private_key_jwt" : "client_secret_basic",
      };
    }
    return {
      client_name: "hx",
      client_uri: "https://github.com/harnessx/hx",
      redirect_uris: [this.redirectUrl ?? ""],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.options.clientSecret ? "client_secret_basic" : "none",
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString("base64url");
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.options.clientId) {
      return {
        client_id: this.options.clientId,
        ...(this.options.clientSecret ? { client_secret: this.options.clientSecret } : {}),
        ...(this.options.issuer ? { issuer: this.options.issuer } : {}),
      } as OAuthClientInformationMixed;
    }
    return this.store.read(this.key)?.client as OAuthClientInformationMixed | undefined;
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    if (this.options.clientId) return; // configured in the settings, not stored
    await this.store.update(this.key, this.url, (record) => {
      record.client = information as unknown as Record<string, unknown>;
    });
  }

  tokens(): OAuthTokens | undefined {
    if (this.fresh) return undefined;
    const tokens = this.store.read(this.key)?.tokens as OAuthTokens | undefined;
    if (!tokens || !this.steppingUp) return tokens;
    const { refresh_token: _kept, ...withoutRefresh } = tokens;
    return withoutRefresh;
  }

  /** A step-up (403 insufficient_scope): a refresh cannot add scopes, so auth() must authorize. */
  private steppingUp = false;
  async stepUp<T>(run: () => Promise<T>): Promise<T> {
    this.steppingUp = true;
    try {
      return await run();
    } finally {
      this.steppingUp = false;
    }
  }

  /** Whether the stored access token is past its `expires_in` (30 s early). */
  tokenExpired(): boolean {
    const record = this.store.read(this.key);
    const seconds = Number(record?.tokens?.expires_in);
    if (!record?.savedAt || !Number.isFinite(seconds) || seconds <= 0) return false;
    return Date.now() > record.savedAt + seconds * 1000 - 30_000;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.store.update(this.key, this.url, (record) => {
      const previous = record.tokens as OAuthTokens | undefined;
      // A refresh that returns no new refresh token keeps the old one (RFC 6749 §6).
      record.tokens = {
        ...tokens,
        ...(!tokens.refresh_token && previous?.refresh_token
          ? { refresh_token: previous.refresh_token }
          : {}),
      } as unknown as Record<string, unknown>;
      record.savedAt = Date.now();
      delete record.wantedScope;
    });
    this.fresh = false;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.authorizer.canAuthorize) {
      throw new McpNeedsLoginError(
        this.server,
        this.tokens() ? "needs you to authorize again" : "needs authorization",
      );
    }
    const state = authorizationUrl.searchParams.get("state") ?? this.expectedState ?? "";
    this.pendingCode = this.callback.waitForCode(state, AUTHORIZATION_WAIT_MS);
    this.pendingCode.catch(() => {}); // awaited by authorizationCode()
    await this.authorizer.open(authorizationUrl.toString(), this.server);
  }

  /** The code the browser brought back to the callback after `redirectToAuthorization`. */
  async authorizationCode(): Promise<string> {
    if (!this.pendingCode) throw new Error("no authorization was started");
    try {
      return await this.pendingCode;
    } finally {
      this.pendingCode = undefined;
    }
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error("no PKCE code verifier was made for this authorization");
    return this.verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier") {
      this.verifier = undefined;
      return;
    }
    const parts: AuthPart[] = scope === "all" ? ["client", "tokens", "discovery"] : [scope];
    await this.store.forget(this.key, parts);
  }

  discoveryState() {
    return this.store.read(this.key)?.discovery as
      | Awaited<ReturnType<NonNullable<OAuthClientProvider["discoveryState"]>>>
      | undefined;
  }

  async saveDiscoveryState(
    state: NonNullable<Awaited<ReturnType<NonNullable<OAuthClientProvider["discoveryState"]>>>>,
  ) {
    await this.store.update(this.key, this.url, (record) => {
      record.discovery = state as unknown as Record<string, unknown>;
    });
  }

  /** Machine grants: the token request (no browser, no refresh token). */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    if (!this.machine) return undefined;
    if (this.options.grant === "jwt_bearer") {
      return new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: await this.identityAssertion(),
      });
    }
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    const chosen = scope ?? this.options.scope;
    if (chosen) params.set("scope", chosen);
    return params;
  }

  /**
   * SEP-990: trades the user's ID token at the identity provider for an ID-JAG naming this
   * server's authorization server (audience) and resource, from the discovery auth() just did.
   */
  private async identityAssertion(): Promise<string> {
    const idp = this.options.idp;
    if (!idp)
      throw new Error(
        `"grant": "jwt_bearer" needs "idp": {tokenEndpoint, clientId, idToken} in the entry of '${this.server}'`,
      );
    const discovery = this.discoveryState();
    const audience = discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
    const resource = discovery?.resourceMetadata?.resource ?? this.url;
    const response = await fetch(idp.tokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
        audience: String(audience ?? ""),
        resource: String(resource),
        subject_token: idp.idToken,
        subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
        client_id: idp.clientId,
      }),
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string };
    if (!response.ok || !body.access_token) {
      throw new Error(`the identity provider refused the token exchange (${body.error ?? response.status})`);
    }
    return body.access_token;
  }

  /** private_key_jwt (a signed assertion) when a key file is configured; else the SDK's default. */
  get addClientAuthentication(): AddClientAuthentication | undefined {
    const keyFile = this.options.privateKeyFile;
    const clientId = this.options.clientId;
    if (!keyFile || !clientId) return undefined;
    const algorithm = this.options.signingAlgorithm ?? "RS256";
    return async (headers, params, url, metadata) => {
      const { createPrivateKeyJwtAuth } = await import("@modelcontextprotocol/sdk/client/auth-extensions.js");
      const sign = createPrivateKeyJwtAuth({
        issuer: clientId,
        subject: clientId,
        privateKey: readFileSync(keyFile, "utf8"),
        alg: algorithm,
      });
      await sign(headers, params, url, metadata);
    };
  }
}
