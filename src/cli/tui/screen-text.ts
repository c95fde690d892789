import { neutraliseTerminalText } from "../terminal-safe.js";

/**
 * Outside text for the full screen: neutralised, and tabs as spaces (a tab's width depends on
 * the column it lands in, so it could push a line past the screen's edge).
 */
export function screenText(text: string): string {
  return neutraliseTerminalText(text).replace(/\t/g, "    ");
}
