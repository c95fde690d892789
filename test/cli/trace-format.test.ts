import { describe, expect, it } from "vitest";
import { formatStatsLine, formatToolCallTrace } from "../../src/cli/trace-format.js";
import { emptyStats } from "../../src/core/stats.js";

const call = (name: string, args: string) => ({ id: "c1", name, arguments: args });

describe("trace lines", () => {
  it("prints the seed's form for a simple call", () => {
    expect(
      formatToolCallTrace(call("load_skill", '{"name":"sync-upstream"}'), { name: "sync-upstream" }),
    ).toBe("> load_skill name=sync-upstream");
  });

  it("quotes values with spaces and summarises multi-line text", () => {
    const line = formatToolCallTrace(call("write_file", ""), { path: "a.txt", content: "one\ntwo\nthree" });
    expect(line).toBe("> write_file path=a.txt content=one…(+2 lines)");
    expect(formatToolCallTrace(call("bash", ""), { command: "ls -la" })).toBe('> bash command="ls -la"');
  });

  it("shortens long values and shows raw text when arguments did not parse", () => {
    const long = formatToolCallTrace(call("bash", ""), { command: "x".repeat(500) });
    expect(long.length).toBeLessThan(100);
    expect(formatToolCallTrace(call("bash", "{not json"), undefined)).toBe("> bash {not json");
  });

  it("closes with turns, tool calls, blocked and tokens", () => {
    const stats = {
      ...emptyStats(),
      turns: 2,
      toolCalls: 1,
      usage: { ...emptyStats().usage, inputTokens: 10, outputTokens: 3 },
    };
    expect(formatStatsLine(stats)).toBe("turns=2 tool_calls=1 blocked=0 tokens: input=10 cached=0 output=3");
  });
});
