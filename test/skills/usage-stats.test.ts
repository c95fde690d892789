import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/context/tokens.js";
import { type SessionEvents, skillUsage } from "../../src/skills/usage-stats.js";
import type { TranscriptLine } from "../../src/transcript/events.js";

const load = (at: string, body: string): TranscriptLine => ({
  type: "message",
  at,
  message: { role: "tool", toolCallId: "c", toolName: "load_skill", content: body, meta: { skill: "pdf" } },
});

const session = (id: string, ...lines: TranscriptLine[]): SessionEvents => ({ id, lines });

describe("skillUsage", () => {
  const long = "long body ".repeat(200);
  const short = "short body";
  const older = session("a", load("2026-01-01T10:00:00.000Z", long));
  const newer = session("b", load("2026-02-01T10:00:00.000Z", short));

  it("reports the body as last sent, whatever order the sessions are read in", () => {
    for (const order of [
      [older, newer],
      [newer, older],
    ]) {
      const [pdf] = skillUsage(order, ["pdf"]).skills;
      expect(pdf.bodyTokens).toBe(estimateTokens(short));
      expect(pdf.lastUsed).toBe("2026-02-01T10:00:00.000Z");
      expect(pdf.loadsByModel).toBe(2);
    }
  });

  it("within a session, the later load wins", () => {
    const [pdf] = skillUsage(
      [session("a", load("2026-01-01T10:00:00.000Z", long), load("2026-01-01T11:00:00.000Z", short))],
      [],
    ).skills;
    expect(pdf.bodyTokens).toBe(estimateTokens(short));
  });
});
