import { spawn } from "node:child_process";
import type { Authorizer } from "./oauth-provider.js";

export interface BrowserOptions {
  /** `HX_BROWSER` or `mcp.browser`: a command the URL is appended to (split on spaces). */
  command?: string;
  /** Whether a person is there to authorize (a terminal session, `hx mcp login`). */
  interactive: boolean;
  /** Prints the line with the URL for the user. */
  print: (line: string) => void;
  platform?: NodeJS.Platform;
}

/**
 * How an authorization URL reaches the user: the configured browser command (which also lets
 * a headless run authorize: it is how CI and tests complete the flow), else the system's
 * opener in an interactive run, and the URL printed either way so it can be copied.
 * Headless without a command, hx does not authorize: the server needs `hx mcp login`.
 */
export function browserAuthorizer(options: BrowserOptions): Authorizer {
  const command = options.command?.trim() || undefined;
  return {
    canAuthorize: command !== undefined || options.interactive,
    async open(url, server) {
      options.print(
        `MCP server '${server}' asks you to authorize hx. Open this URL if no browser opens:\n  ${url}`,
      );
      const argv = command ? command.split(/\s+/) : systemOpener(options.platform ?? process.platform);
      if (!argv) return;
      await new Promise<void>((resolve) => {
        const child = spawn(argv[0], [...argv.slice(1), url], { stdio: "ignore", detached: !command });
        child.once("error", () => resolve());
        // The system opener returns at once; a configured command is waited for (it may follow the flow).
        if (command) child.once("close", () => resolve());
        else {
          child.unref();
          resolve();
        }
      });
    },
  };
}

function systemOpener(platform: NodeJS.Platform): string[] | undefined {
  if (platform === "darwin") return ["open"];
  if (platform === "win32") return ["cmd", "/c", "start", ""];
  return process.env.DISPLAY || process.env.WAYLAND_DISPLAY ? ["xdg-open"] : undefined;
}
