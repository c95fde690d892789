import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompactor } from "../../src/context/compactor.js";
import { findLoadedSkills } from "../../src/context/skill-bodies.js";
import { createToolOutputSpill } from "../../src/context/spill.js";
import { estimateRequestTokens } from "../../src/context/tokens.js";
import type { Message } from "../../src/core/messages.js";
import { type ModelRequest, ProviderError } from "../../src/providers/provider.js";
import { ScriptedProvider, type ScriptedReply } from "../../src/providers/scripted.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { readTranscript, repairPairs } from "../../src/transcript/reader.js";
import { TranscriptWriter } from "../../src/transcript/writer.js";
import { tempDir } from "../support/temp-dir.js";
import {
  feed,
  isSummaryRequest,
  SKILL_NAME,
  sessionRunner,
  skillBody,
  skillTool,
  summaryReply,
  workTool,
} from "./support/context-harness.js";

const WINDOW = 32_000;
const SYSTEM = "You are hx, a coding agent.\n\n# Skills\n- deploy-checklist: how to ship a release";

let home: string;
let savedHome: string | undefined;
beforeEach(() => {
  savedHome = process.env.HOME;
  home = tempDir("hx-home-");
  process.env.HOME = home;
});
afterEach(() => {
  process.env.HOME = savedHome;
});

/** 20 prompts of 10 model turns: load the skill once, then work with big and parallel outputs. */
function scriptedWorker(window: number) {
  let step = 0;
  let inPrompt = 0;
  let loaded = false;
  return (request: ModelRequest): ScriptedReply => {
    const usage = { inputTokens: estimateRequestTokens(request), outputTokens: 20 };
    if (estimateRequestTokens(request) > window) {
      return { error: new ProviderError("context_overflow", "context too long") };
    }
    if (isSummaryRequest(request)) return { ...summaryReply(), usage };
    step += 1;
    inPrompt += 1;
    if (!loaded) {
      loaded = true;
      return { toolCalls: [{ name: "load_skill", arguments: { name: SKILL_NAME } }], usage };
    }
    if (inPrompt >= 10) {
      inPrompt = 0;
      return { text: `finished part ${step}`, usage };
    }
    if (step % 13 === 0) return { toolCalls: [{ name: "work", arguments: { chars: 40_000, step } }], usage };
    if (step % 5 === 0) {
      return {
        text: "two at once",
        toolCalls: [
          { name: "work", arguments: { chars: 3_000, step } },
          { name: "work", arguments: { chars: 3_000, step: step + 0.5 } },
        ],
        usage,
      };
    }
    return { toolCalls: [{ name: "work", arguments: { chars: 6_000, step } }], usage };
  };
}

describe.each([
  { layers: "shortening and summaries", shortenAt: 0.5, minCompactions: 2 },
  { layers: "summaries only", shortenAt: 10, minCompactions: 8 },
])("a 200-turn session in a 32k window ($layers)", ({ shortenAt, minCompactions }) => {
  it("never overflows, keeps pairs intact, keeps the loaded skill, writes the transcript first", async () => {
    const root = tempDir("hx-ws-");
    const model = new ScriptedProvider([]);
    feed(model, 400, scriptedWorker(WINDOW));
    const tools = [skillTool({ [SKILL_NAME]: skillBody(SKILL_NAME, 2_000) }), workTool];
    const registry = new ToolRegistry(tools);
    await registry.ready();
    const schemas = registry.schemas();
    const writer = TranscriptWriter.create({ workspaceRoot: root, provider: "scripted", model: "m" });
    const preCompact: string[] = [];
    const onDiskAtDrop: boolean[] = [];
    const compactor = new ContextCompactor({
      provider: model,
      window: WINDOW,
      system: SYSTEM,
      toolSchemas: schemas,
      shortenAt,
      onPreCompact: (trigger, messages) => {
        preCompact.push(trigger);
        // Before anything is dropped, the whole history is already on disk.
        const onDisk = readTranscript(writer.file).messages;
        onDiskAtDrop.push(
          onDisk.length === messages.length &&
            onDisk.every((m, i) => m.role === messages[i].role && sameCallIds(m, messages[i])),
        );
      },
    });
    const session = sessionRunner({
      model,
      system: SYSTEM,
      tools,
      root,
      extensions: [createToolOutputSpill({ workspaceRoot: root }), compactor.extension()],
      observers: [writer.usageRecorder()],
    });
    writer.follow(session.conversation);

    for (let p = 1; p <= 20; p++) {
      const result = await session.run(`task ${p}: continue the release work`);
      expect(result.stop, `prompt ${p}: ${result.error?.message}`).toBe("done");
    }

    const work = model.requests.filter((r) => !isSummaryRequest(r));
    expect(work.length).toBeGreaterThanOrEqual(200);
    const compactions = session.events.filter(
      (e) => e.type === "notice" && e.text.startsWith("context compacted"),
    );
    expect(compactions.length).toBeGreaterThanOrEqual(minCompactions);
    expect(preCompact).toEqual(compactions.map(() => "auto"));
    expect(onDiskAtDrop.length).toBe(compactions.length);
    expect(onDiskAtDrop.every(Boolean)).toBe(true);

    const firstTools = JSON.stringify(work[0].tools);
    work.forEach((request, i) => {
      expect(request.system).toBe(SYSTEM);
      expect(JSON.stringify(request.tools)).toBe(firstTools);
      expect(estimateRequestTokens(request)).toBeLessThanOrEqual(WINDOW);
      expect(repairPairs(request.messages).changes, `request ${i}: pairs`).toBe(0);
      if (i > 0) expect(findLoadedSkills(request.messages).map((s) => s.name)).toContain(SKILL_NAME);
    });
    for (const request of model.requests) expect(estimateRequestTokens(request)).toBeLessThanOrEqual(WINDOW);

    // Spilled outputs are on disk and named in the conversation.
    const spilled = readdirSync(path.join(root, ".hx", "tool-results"));
    expect(spilled.length).toBeGreaterThan(0);
    expect(readFileSync(path.join(root, ".hx", "tool-results", spilled[0]), "utf8").length).toBe(40_000);

    // The transcript holds every call ever made and its result.
    writer.close();
    const lines = readFileSync(writer.file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const logged = lines.filter((l) => l.type === "message").map((l) => l.message as Message);
    const callIds = logged.flatMap((m) => (m.role === "assistant" ? m.toolCalls.map((c) => c.id) : []));
    const resultIds = new Set(logged.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
    expect(callIds.length).toBeGreaterThan(150);
    expect(callIds.filter((id) => !resultIds.has(id))).toEqual([]);
    const rebuilt = readTranscript(writer.file);
    expect(rebuilt.messages.map((m) => m.role)).toEqual(session.messages.map((m) => m.role));
    expect(rebuilt.compactions).toBe(compactions.length);
    expect(existsSync(writer.file)).toBe(true);
  }, 60_000);
});

function sameCallIds(a: Message, b: Message): boolean {
  if (a.role === "tool" && b.role === "tool") return a.toolCallId === b.toolCallId;
  if (a.role === "assistant" && b.role === "assistant") {
    return a.toolCalls.map((c) => c.id).join() === b.toolCalls.map((c) => c.id).join();
  }
  return true;
}
