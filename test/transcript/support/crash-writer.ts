// Child process for the kill -9 test: records a never-ending session, one turn after another
// (prompt, tool call, result, answer), until it is killed. argv[2] = workspace root; HOME is
// set by the parent. Prints the transcript path once, then keeps writing.
import { TranscriptWriter } from "../../../src/transcript/writer.js";

const writer = TranscriptWriter.create({
  workspaceRoot: process.argv[2],
  provider: "scripted",
  model: "m",
  id: "crash",
});
const padding = "p".repeat(2_000);
let n = 0;
writer.record({ type: "message", message: { role: "user", content: "first prompt" } });
console.log(writer.file);
for (;;) {
  n += 1;
  // Yield now and then so stdout and signals are serviced on every platform.
  if (n % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
  writer.record({
    type: "message",
    message: { role: "assistant", content: "", toolCalls: [{ id: `c${n}`, name: "work", arguments: "{}" }] },
  });
  writer.record({
    type: "usage",
    usage: { inputTokens: n, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  });
  writer.record({
    type: "message",
    message: { role: "tool", toolCallId: `c${n}`, toolName: "work", content: `${n} ${padding}` },
  });
  writer.record({ type: "message", message: { role: "assistant", content: `answer ${n}`, toolCalls: [] } });
  writer.record({ type: "message", message: { role: "user", content: `prompt ${n}` } });
}
