import { Readable } from "node:stream";
import type { RunFlags } from "../run-config.js";
import { neutraliseTerminalText } from "../terminal-safe.js";

/**
 * `hx acp`: speaks the Agent Client Protocol on stdin/stdout until the editor closes stdin.
 * stdout carries only JSON-RPC frames: anything else hx would print there (a library's stray
 * line) is sent to stderr, where the logs go. Returns the exit code.
 */
export async function runAcpCommand(flags: RunFlags): Promise<number> {
  const { ndJsonStream } = await import("@agentclientprotocol/sdk");
  const { serveAcp } = await import("./acp-agent.js");
  const stdout = process.stdout;
  const writeFrame = stdout.write.bind(stdout);
  stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;
  const output = new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        writeFrame(chunk, (error) => (error ? reject(error) : resolve()));
      }),
  });
  const input = Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>;
  const log = (line: string) => process.stderr.write(`${neutraliseTerminalText(line)}\n`);
  await serveAcp(ndJsonStream(output, input), flags, log);
  return 0;
}
