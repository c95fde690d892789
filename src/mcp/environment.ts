/**
 * What a stdio server's process gets from hx's environment: the few variables programs need to
 * run (the SDK's own list: HOME, PATH, SHELL, TERM, USER, LOGNAME), locale, temp folder and
 * proxy settings — never API keys or other secrets — plus the server's own `env`.
 */
const INHERITED = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TMPDIR",
  "TZ",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
];

export function childEnvironment(
  own: Record<string, string>,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = parent[key];
    // Exported shell functions (`() { …`) are not passed on, as the SDK does.
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return { ...env, ...own };
}
