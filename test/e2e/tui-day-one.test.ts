// The full-screen session in tmux against the fake model server: what a day of real use found
// (issue 20). Each test drives the built binary as a person does and checks the screen and what
// reached the model.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Screen, startScreen, TMUX_AVAILABLE } from "../support/tmux-screen.js";
import { KEYS, messagesOf, useHarness } from "./harness-support.js";

const h = useHarness();
let screen: Screen | undefined;
afterEach(() => {
  screen?.close();
  screen = undefined;
});

const open = (extra: string[] = [], env: Record<string, string | undefined> = KEYS) => {
  screen = startScreen([...h.args(), ...extra], { cwd: h.work, env });
  return screen;
};
/** The session is open once the status line says how commands run. */
const opened = (s: Screen) => s.waitFor(/sandboxed|no sandbox/);
const send = (s: Screen, text: string) => {
  s.type(text);
  s.keys("Enter");
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!TMUX_AVAILABLE)("the full-screen session, round two", () => {
  it("without a key hx leaves the screen with the message and exit 1; an unreachable server keeps it usable", async () => {
    const noKey = startScreen(["-C", h.work], { cwd: h.work, env: { DEEPSEEK_API_KEY: undefined } });
    screen = noKey;
    const shown = await noKey.waitFor("DEEPSEEK_API_KEY is not set");
    expect(shown).toContain("--provider openai");
    expect(await noKey.exited()).toBe(1);
    noKey.close();

    const s = open(["--base-url", "http://127.0.0.1:9/v1"], { ...KEYS, HX_MAX_RETRIES: "0" });
    await opened(s);
    send(s, "hello");
    await s.waitFor("Could not reach http://127.0.0.1:9/v1");
    send(s, "/mode plan");
    await s.waitFor("Permission mode: plan.");
    s.keys("C-d");
    expect(await s.exited()).toBe(0);
  });

  it("/clear keeps the permission mode and the model, and says so", async () => {
    h.server.reply().text("first answer");
    h.server.reply().tool("write_file", { path: "new.txt", content: "x\n" });
    h.server.reply().text("declined");
    const s = open(["--permission-mode", "bypassPermissions"]);
    await opened(s);
    send(s, "/mode default");
    await s.waitFor("Permission mode: default.");
    send(s, "/model other-model");
    await s.waitFor("other-model from the next prompt on");
    send(s, "hi");
    await s.waitFor("first answer");
    send(s, "/clear");
    const cleared = await s.waitFor(
      "New conversation. Kept: permission mode default, model openai/other-model.",
    );
    expect(cleared).not.toContain("first answer");
    expect(cleared).toMatch(/other-model · default ·/);
    send(s, "write it");
    // default mode asks: the write does not run on its own.
    await s.waitFor("Allow write_file(new.txt)?");
    expect(existsSync(path.join(h.work, "new.txt"))).toBe(false);
    expect(h.server.requests[1]?.body.model).toBe("other-model");
    // The new conversation starts empty.
    expect(messagesOf(h.server.requests[1]).filter((m: { role: string }) => m.role === "user")).toHaveLength(
      1,
    );
    await pause(400);
    s.type("n");
    await s.waitFor("declined");
  });
});
