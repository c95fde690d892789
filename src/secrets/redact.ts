const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^/\s:@]*):([^/\s@]+)@/gi;

/** `http://user:pass@host` → `http://user:***@host`, everywhere in `text`. */
export function redactUrlPasswords(text: string): string {
  return text.replace(URL_PASSWORD, "$1:***@");
}
