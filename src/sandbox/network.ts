import { accessSync, constants } from "node:fs";
import { findOnPath } from "./detect.js";
import { type AllowListState, type DomainPolicy, judgeHost, normalizeHost } from "./domains.js";
import { type NetBridge, startNetBridge } from "./net-bridge.js";
import { type NetworkProxy, type ProxyVerdict, startProxy } from "./proxy.js";

/** The user's answer to "may commands reach HOST?". */
export type NetworkAnswer = "once" | "session" | "always" | "no";

/** A question for the user about one host a command asked the proxy for. */
export interface NetworkRequest {
  host: string;
  port: number;
}

/**
 * Asks the user (interactive sessions only); without one, hosts not on the list are refused
 * at once. "once" lets this connection through, "session" the host until hx exits, "always"
 * also saves it to the settings' `sandbox.network.allowedDomains`.
 */
export type NetworkAsker = (request: NetworkRequest) => Promise<NetworkAnswer>;

/**
 * The allow-listed network of one session: the proxy (in-process) and the bridge into the
 * sandbox's network namespace, both started on first need; the decision for each host.
 */
export interface NetworkGate {
  state(): AllowListState;
  setPolicy(policy: DomainPolicy): void;
  allowForSession(host: string): void;
  denyForSession(host: string): void;
  /** Starts the proxy and the bridge once; rejects with why they cannot start. */
  ensure(): Promise<NetBridge>;
  /** How many hosts were refused so far; `refusedSince(n)` lists those after the n-th. */
  refusedCount(): number;
  refusedSince(count: number): string[];
  close(): void;
}

export function createNetworkGate(options: {
  policy: DomainPolicy;
  ask?: NetworkAsker;
  /** Saves an "always" answer; a failure is reported in the refusal or as a notice. */
  saveAllowedDomain?: (host: string) => Promise<void>;
  tempRoot: string;
  bwrap: string;
  userNamespace: boolean;
  /** Where nsenter is; default found on PATH. */
  nsenter?: string;
  /** Opens upstream connections (tests). */
  connect?: Parameters<typeof startProxy>[0]["connect"];
}): NetworkGate {
  let policy: DomainPolicy = options.policy;
  const sessionAllowed: string[] = [];
  const sessionDenied: string[] = [];
  const pending = new Map<string, Promise<NetworkAnswer>>();
  let started: Promise<{ proxy: NetworkProxy; bridge: NetBridge }> | undefined;
  let closed = false;

  const howToAllow = (host: string) =>
    `To allow it, add "${host}" to sandbox.network.allowedDomains in .hx/settings.json (or ~/.hx/settings.json), or type /sandbox allow ${host} in an interactive session.`;

  const decide = async (host: string, port: number): Promise<ProxyVerdict> => {
    if (sessionDenied.includes(host))
      return {
        allow: false,
        message: `hx sandbox: ${host} was refused for this session. ${howToAllow(host)}\n`,
      };
    const verdict = judgeHost(host, policy, sessionAllowed);
    if (verdict === "allow") return { allow: true };
    if (verdict === "deny")
      return {
        allow: false,
        message: `hx sandbox: ${host} is in sandbox.network.deniedDomains; commands cannot reach it.\n`,
      };
    if (!options.ask)
      return {
        allow: false,
        message: `hx sandbox: ${host} is not in sandbox.network.allowedDomains, so commands cannot reach it. ${howToAllow(host)}\n`,
      };
    // One question per host, however many connections wait for it.
    let answer = pending.get(host);
    if (!answer) {
      answer = options.ask({ host, port }).catch((): NetworkAnswer => "no");
      pending.set(host, answer);
      void answer.finally(() => pending.delete(host));
    }
    const given = await answer;
    if (given === "no") {
      if (!sessionDenied.includes(host)) sessionDenied.push(host);
      return { allow: false, message: `hx sandbox: the user refused ${host}. ${howToAllow(host)}\n` };
    }
    if (given !== "once" && !sessionAllowed.includes(host)) sessionAllowed.push(host);
    if (given === "always") await options.saveAllowedDomain?.(host).catch(() => undefined);
    return { allow: true };
  };

  let proxyRef: NetworkProxy | undefined;
  let bridgeRef: NetBridge | undefined;
  const refusals = (): readonly string[] => proxyRef?.refusals() ?? [];

  return {
    state: () => ({ ...policy, sessionAllowed: [...sessionAllowed], sessionDenied: [...sessionDenied] }),
    setPolicy(next) {
      policy = next;
    },
    allowForSession(host) {
      const name = normalizeHost(host);
      const at = sessionDenied.indexOf(name);
      if (at >= 0) sessionDenied.splice(at, 1);
      if (!sessionAllowed.includes(name)) sessionAllowed.push(name);
    },
    denyForSession(host) {
      const name = normalizeHost(host);
      const at = sessionAllowed.indexOf(name);
      if (at >= 0) sessionAllowed.splice(at, 1);
      if (!sessionDenied.includes(name)) sessionDenied.push(name);
    },
    ensure() {
      started ??= (async () => {
        const nsenter = options.nsenter ?? findOnPath("nsenter");
        if (!nsenter || !isExecutable(nsenter))
          throw new Error("nsenter is not installed (Debian/Ubuntu: util-linux)");
        const proxy = await startProxy({ decide, tempRoot: options.tempRoot, connect: options.connect });
        proxyRef = proxy;
        try {
          const bridge = await startNetBridge({
            bwrap: options.bwrap,
            nsenter,
            socketPath: proxy.socketPath,
            userNamespace: options.userNamespace,
          });
          bridgeRef = bridge;
          if (closed) stop();
          return { proxy, bridge };
        } catch (error) {
          proxy.close();
          proxyRef = undefined;
          throw error;
        }
      })();
      return started.then(({ bridge }) => bridge);
    },
    refusedCount: () => refusals().length,
    refusedSince: (count) => [...new Set(refusals().slice(count))],
    close() {
      closed = true;
      stop();
    },
  };

  function stop(): void {
    bridgeRef?.close();
    proxyRef?.close();
    bridgeRef = undefined;
    proxyRef = undefined;
  }
}

/** The line-mode question: `Allow commands to reach example.com? [o] once  [s] this session  [a] always  [n] no `. */
export function formatNetworkQuestion(request: Pick<NetworkRequest, "host" | "port">): string {
  const port = request.port === 443 || request.port === 80 ? "" : ` (port ${request.port})`;
  return `Allow commands to reach ${request.host}${port}? [o] once  [s] this session  [a] always  [n] no `;
}

/** Reads an answer: o/once, s/session (y/yes too), a/always; anything else (an empty line included) is "no". */
export function parseNetworkAnswer(line: string | undefined): NetworkAnswer {
  const answer = (line ?? "").trim().toLowerCase();
  if (answer === "o" || answer === "once") return "once";
  if (answer === "s" || answer === "session" || answer === "y" || answer === "yes") return "session";
  if (answer === "a" || answer === "always") return "always";
  return "no";
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
