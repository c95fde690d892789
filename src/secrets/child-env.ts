/**
 * What child processes (bash commands, hooks, sandboxed MCP servers) inherit from hx's
 * environment: everything except secrets. The model reads what a command prints, so a key in
 * a child's environment is one `echo $OPENAI_API_KEY` away from the transcript and the next
 * request. Names listed in settings `shell.env.passthrough` are kept anyway.
 */

/** Names that end like a credential: `*_API_KEY`, `*_TOKEN`, `*_SECRET`, ... (or are exactly that). */
const SECRET_NAME =
  /(^|_)(API_?KEY|TOKEN|SECRET|SECRET_?KEY|ACCESS_?KEY|PRIVATE_?KEY)$|PASSWORD|PASSWD|PASSPHRASE/i;

/** `scheme://user:password@host`: a URL that carries a password. */
const URL_WITH_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

export interface ChildEnvOptions {
  /** Secret-looking names to keep anyway (settings `shell.env.passthrough`); exact, case-sensitive. */
  passthrough?: readonly string[];
  /** Variables to add or override after filtering. */
  extra?: Record<string, string>;
}

/** True for a variable that holds a credential, by its name or by its value (a URL with a password). */
export function isSecretVariable(name: string, value: string | undefined): boolean {
  return SECRET_NAME.test(name) || (value !== undefined && URL_WITH_PASSWORD.test(value));
}

/** The environment for a child: `base` without secrets (unless passed through), plus `extra`. */
export function childEnvironment(
  base: NodeJS.ProcessEnv = process.env,
  options: ChildEnvOptions = {},
): Record<string, string> {
  const keep = new Set(options.passthrough ?? []);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (isSecretVariable(name, value) && !keep.has(name)) continue;
    env[name] = value;
  }
  return Object.assign(env, options.extra);
}

/** The names `childEnvironment` drops from `base`, for `hx doctor`. */
export function droppedSecretNames(
  base: NodeJS.ProcessEnv = process.env,
  passthrough: readonly string[] = [],
): string[] {
  const keep = new Set(passthrough);
  return Object.entries(base)
    .filter(([name, value]) => value !== undefined && isSecretVariable(name, value) && !keep.has(name))
    .map(([name]) => name)
    .sort();
}

/** Values of the secret variables in `base` long enough to be worth hiding in tool output. */
export function secretValues(base: NodeJS.ProcessEnv = process.env): Array<{ name: string; value: string }> {
  const found: Array<{ name: string; value: string }> = [];
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || value.length < 8 || !isSecretVariable(name, value)) continue;
    found.push({ name, value });
  }
  return found;
}
