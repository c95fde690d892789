import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ContextCompactor } from "../../src/context/compactor.js";
import { findLoadedSkills } from "../../src/context/skill-bodies.js";
import { createToolOutputSpill } from "../../src/context/spill.js";
import { SUMMARY_SYSTEM_PROMPT } from "../../src/context/summarize.js";
import { isSummaryMessage } from "../../src/context/summary-message.js";
import { estimateRequestTokens } from "../../src/context/tokens.js";
import { safeCutPoints } from "../../src/context/turns.js";
import { Conversation, type ConversationChange } from "../../src/core/conversation.js";
import type { Message } from "../../src/core/messages.js";
import { type ModelRequest, ProviderError } from "../../src/providers/provider.js";
import { ScriptedProvider, type ScriptedReply } from "../../src/providers/scripted.js";
import { repairPairs } from "../../src/transcript/reader.js";
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

const SYSTEM = "You are hx.";

/** user, then `turns` assistant turns each with one call and its result of `chars` chars. */
function conversation(turns: number, chars: number, skillAt = 0): Message[] {
  const messages: Message[] = [{ role: "user", content: "start the work" }];
  for (let t = 0; t < turns; t++) {
    const id = `c${t}`;
    const isSkill = t === skillAt;
    messages.push({
      role: "assistant",
      content: "",
      toolCalls: [{ id, name: isSkill ? "load_skill" : "work", arguments: "{}" }],
    });
    messages.push(
      isSkill
        ? {
            role: "tool",
            toolCallId: id,
            toolName: "load_skill",
            content: `<skill name="${SKILL_NAME}">\n${skillBody(SKILL_NAME, 300)}\n</skill>`,
            meta: { skill: SKILL_NAME },
          }
        : { role: "tool", toolCallId: id, toolName: "work", content: "y".repeat(chars) },
    );
  }
  return messages;
}

function compactorFor(
  model: ScriptedProvider,
  window: number,
  extra: Partial<ConstructorParameters<typeof ContextCompactor>[0]> = {},
) {
  return new ContextCompactor({ provider: model, window, system: SYSTEM, toolSchemas: [], ...extra });
}

describe("sizing the next request", () => {
  async function runWithReportedInput(report: (request: ModelRequest) => number) {
    const root = tempDir("hx-ws-");
    const model = new ScriptedProvider([]);
    let step = 0;
    feed(model, 80, (request: ModelRequest): ScriptedReply => {
      if (isSummaryRequest(request)) return summaryReply();
      step += 1;
      const usage = { inputTokens: report(request), outputTokens: 10 };
      if (step > 40) return { text: "done", usage };
      return { toolCalls: [{ name: "work", arguments: { chars: 2_000, step } }], usage };
    });
    const window = 8_000;
    const session = sessionRunner({
      model,
      system: SYSTEM,
      tools: [workTool],
      root,
      extensions: [compactorFor(model, window).extension()],
    });
    const result = await session.run("work for a while");
    const work = model.requests.filter((r) => !isSummaryRequest(r));
    return { result, window, largest: Math.max(...work.map(estimateRequestTokens)), model };
  }

  it("never trusts a reported input lower than the estimate (servers that report 0 or too little)", async () => {
    const { result, window, largest, model } = await runWithReportedInput(() => 1);
    expect(result.stop).toBe("done");
    expect(model.requests.some(isSummaryRequest)).toBe(true);
    expect(largest).toBeLessThanOrEqual(window);
  });

  it("compacts earlier when the provider counts more tokens than the estimate", async () => {
    const tokenizerRatio = 1.5;
    const { result, window, model } = await runWithReportedInput((r) =>
      Math.round(estimateRequestTokens(r) * tokenizerRatio),
    );
    expect(result.stop).toBe("done");
    const work = model.requests.filter((r) => !isSummaryRequest(r));
    // As the provider counts them, requests stay inside the window (one turn of slack).
    for (const request of work.slice(1))
      expect(estimateRequestTokens(request) * tokenizerRatio).toBeLessThanOrEqual(window);
  });
});

describe("SessionStart after a compaction (Claude Code's source: compact)", () => {
  it("what the hooks give is kept at the end of the summary; the skill spans still hold", async () => {
    const model = new ScriptedProvider([summaryReply()]);
    const sources: string[] = [];
    const compactor = compactorFor(model, 20_000, {
      contextAfterCompact: async (trigger) => {
        sources.push(trigger);
        return "Conventional Commits only";
      },
    });
    const history = new Conversation(conversation(20, 2_000, 1));
    await compactor.compactNow(history, {});
    expect(sources).toEqual(["manual"]);
    const [summary] = history.messages;
    expect(isSummaryMessage(summary)).toBe(true);
    expect(summary.content.endsWith("<hook-context>\nConventional Commits only\n</hook-context>")).toBe(true);
    expect(findLoadedSkills(history.messages).map((s) => s.name)).toEqual([SKILL_NAME]);
  });
});

describe("compaction nobody's estimate asked for summarises most of a short history", () => {
  it("/compact on a conversation far below the window keeps only the latest turn", async () => {
    const model = new ScriptedProvider([summaryReply()]);
    const history = new Conversation(conversation(6, 300, -1));
    const record = await compactorFor(model, 100_000).compactNow(history, { focus: "x" });
    expect(record?.droppedMessages).toBe(11);
    expect(record?.keptMessages).toBe(2);
    expect(record!.tokensAfter).toBeLessThan(record!.tokensBefore);
  });
});

describe("context overflow from the provider", () => {
  it("compacts and retries once, then succeeds", async () => {
    const root = tempDir("hx-ws-");
    const model = new ScriptedProvider([]);
    const realLimit = 3_000;
    feed(model, 10, (request: ModelRequest): ScriptedReply => {
      if (isSummaryRequest(request)) return summaryReply();
      if (estimateRequestTokens(request) > realLimit)
        return { error: new ProviderError("context_overflow", "too long") };
      return { text: "done" };
    });
    // The compactor believes the window is huge, so only the provider's error triggers it.
    const compactor = compactorFor(model, 100_000, { keepRecentShare: 0.01 });
    const session = sessionRunner({
      model,
      system: SYSTEM,
      tools: [workTool],
      root,
      extensions: [compactor.extension()],
      history: conversation(12, 1_600),
    });
    const result = await session.run("and now finish");
    expect(result.stop).toBe("done");
    const kinds = model.requests.map((r) => (isSummaryRequest(r) ? "summary" : "work"));
    expect(kinds).toEqual(["work", "summary", "work"]);
    expect(estimateRequestTokens(model.requests[2])).toBeLessThanOrEqual(realLimit);
    expect(model.requests[1].system).toBe(SUMMARY_SYSTEM_PROMPT);
    expect(model.requests[2].system).toBe(SYSTEM);
    expect(findLoadedSkills(model.requests[2].messages).map((s) => s.name)).toEqual([SKILL_NAME]);
    expect(repairPairs(model.requests[2].messages).changes).toBe(0);
  });

  it("retries only once when the overflow persists", async () => {
    const root = tempDir("hx-ws-");
    const model = new ScriptedProvider([]);
    feed(model, 10, (request) =>
      isSummaryRequest(request)
        ? summaryReply()
        : { error: new ProviderError("context_overflow", "too long") },
    );
    const compactor = compactorFor(model, 100_000, { keepRecentShare: 0.01 });
    const session = sessionRunner({
      model,
      system: SYSTEM,
      tools: [workTool],
      root,
      extensions: [compactor.extension()],
      history: conversation(6, 2_000),
    });
    const result = await session.run("finish");
    expect(result.stop).toBe("error");
    expect(result.error?.kind).toBe("context_overflow");
    expect(model.requests.filter((r) => !isSummaryRequest(r))).toHaveLength(2);
  });
});

describe("compactNow (/compact [focus])", () => {
  it("summarises older turns with the focus, keeps recent ones, re-injects loaded skills, fires PreCompact", async () => {
    const model = new ScriptedProvider([summaryReply()]);
    const triggers: string[] = [];
    const seen: number[] = [];
    const compactor = compactorFor(model, 20_000, {
      onPreCompact: (t, m) => {
        triggers.push(t);
        seen.push(m.length);
      },
    });
    const history = new Conversation(conversation(20, 2_000, 1));
    const changes: ConversationChange[] = [];
    history.subscribe((change) => changes.push(change));
    const messages = history.messages;
    const before = messages.length;
    const record = await compactor.compactNow(history, { focus: "the database migration" });
    expect(record).toBeDefined();
    expect(triggers).toEqual(["manual"]);
    expect(seen).toEqual([before]);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ type: "replace", reason: "compaction", compaction: record });
    const prompt = model.requests[0].messages[0].content;
    expect(prompt).toContain("focus on: the database migration");
    expect(model.requests[0].tools).toEqual([]);
    expect(isSummaryMessage(messages[0])).toBe(true);
    expect(messages[0].content).toContain(
      `Skills loaded in this conversation, whose instructions still apply: ${SKILL_NAME}`,
    );
    expect(messages[0].content).toContain(`${SKILL_NAME} END`);
    expect(findLoadedSkills(messages).map((s) => s.name)).toEqual([SKILL_NAME]);
    expect(repairPairs(messages).changes).toBe(0);
    expect(messages.length).toBeLessThan(before);
    expect(record!.tokensAfter).toBeLessThan(record!.tokensBefore);
    expect(messages.at(-1)).toEqual(conversation(20, 2_000, 1).at(-1));
  });

  it("lists skill bodies that do not fit the cap by name, and no longer counts them as loaded", async () => {
    const model = new ScriptedProvider([summaryReply()]);
    const compactor = compactorFor(model, 4_000, { skillCapShare: 0.01 });
    const history = new Conversation(conversation(20, 2_000, 1));
    const messages = history.messages;
    const record = await compactor.compactNow(history);
    expect(record?.skillsToReload).toEqual([SKILL_NAME]);
    expect(messages[0].content).toContain(`load again if needed): ${SKILL_NAME}`);
    expect(findLoadedSkills(messages)).toEqual([]);
  });

  it("re-injects a body cut to fit, marked as cut and not counted as loaded", async () => {
    const model = new ScriptedProvider([summaryReply()]);
    // Room for part of the ~300-token body only.
    const compactor = compactorFor(model, 2_500, { skillCapShare: 0.1 });
    const history = new Conversation(conversation(20, 2_000, 1));
    const record = await compactor.compactNow(history);
    expect(record?.reinjectedSkills).toEqual([SKILL_NAME]);
    expect(record?.skillsToReload).toEqual([SKILL_NAME]);
    const head = history.messages[0];
    expect(head.content).toContain(
      `[skill ${SKILL_NAME} cut to fit the context; load it again for the full text]`,
    );
    expect(head.content).not.toContain(`${SKILL_NAME} END`);
    expect(head.role === "user" && head.meta).toEqual({ kind: "summary" });
  });

  it("the summary's meta points at each whole body it re-injects, so the next compaction finds it", async () => {
    const model = new ScriptedProvider([summaryReply()]);
    const history = new Conversation(conversation(20, 2_000, 1));
    await compactorFor(model, 20_000).compactNow(history);
    const head = history.messages[0];
    if (head.role !== "user") throw new Error("expected the summary first");
    expect(head.meta?.kind).toBe("summary");
    const [span] = head.meta?.skills ?? [];
    expect(span?.name).toBe(SKILL_NAME);
    const text = head.content.slice(span.start, span.end);
    expect(text.startsWith(`<skill name="${SKILL_NAME}">`)).toBe(true);
    expect(text.endsWith("</skill>")).toBe(true);
  });

  it("falls back to a mechanical summary when the model call fails", async () => {
    const model = new ScriptedProvider([{ error: new ProviderError("server", "boom") }]);
    const compactor = compactorFor(model, 20_000);
    const history = new Conversation(conversation(10, 4_000));
    const messages = history.messages;
    const record = await compactor.compactNow(history);
    expect(record?.summaryError).toContain("boom");
    expect(messages[0].content).toContain("## Requests");
    expect(repairPairs(messages).changes).toBe(0);
  });

  it("does nothing when there is nothing to drop", async () => {
    const model = new ScriptedProvider([]);
    const history = new Conversation([{ role: "user", content: "hi" }]);
    expect(await compactorFor(model, 20_000).compactNow(history)).toBeUndefined();
    expect(history.version).toBe(0);
    expect(model.requests).toHaveLength(0);
  });
});

describe("tool-output spill", () => {
  it("saves a long output under .hx/tool-results and shows a preview naming the file", async () => {
    const root = tempDir("hx-ws-");
    const model = new ScriptedProvider([
      { toolCalls: [{ name: "work", arguments: { chars: 50_000 }, id: "call/1" }] },
      { text: "ok" },
    ]);
    const session = sessionRunner({
      model,
      system: SYSTEM,
      tools: [workTool],
      root,
      extensions: [createToolOutputSpill({ workspaceRoot: root })],
    });
    await session.run("go");
    const result = session.messages.find((m) => m.role === "tool");
    const file = path.join(root, ".hx", "tool-results", "call_1.txt");
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toHaveLength(50_000);
    expect(result?.content.length).toBeLessThan(2_600);
    expect(result?.content).toContain(".hx/tool-results/call_1.txt");
    expect(result?.content).toMatch(/offset \d+/);
    expect(result?.content.startsWith("step 0 line 1:")).toBe(true);
  });

  it("leaves short outputs and skill bodies alone", async () => {
    const root = tempDir("hx-ws-");
    const model = new ScriptedProvider([
      {
        toolCalls: [
          { name: "load_skill", arguments: { name: SKILL_NAME } },
          { name: "work", arguments: { chars: 100 } },
        ],
      },
      { text: "ok" },
    ]);
    const session = sessionRunner({
      model,
      system: SYSTEM,
      tools: [skillTool({ [SKILL_NAME]: "x".repeat(50_000) }), workTool],
      root,
      extensions: [createToolOutputSpill({ workspaceRoot: root, limitChars: 1_000 })],
    });
    await session.run("go");
    const results = session.messages.filter((m) => m.role === "tool");
    expect(results[0].content.length).toBeGreaterThan(50_000);
    expect(results[1].content).toHaveLength(100);
    expect(existsSync(path.join(root, ".hx", "tool-results"))).toBe(false);
  });
});

/** Random conversations: turns with 0–3 parallel calls, some skill loads, some user prompts. */
const arbitraryConversation = fc
  .array(
    fc.record({
      prompt: fc.boolean(),
      calls: fc.integer({ min: 0, max: 3 }),
      skill: fc.boolean(),
      size: fc.integer({ min: 10, max: 3_000 }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((turns) => {
    const messages: Message[] = [{ role: "user", content: "task" }];
    let n = 0;
    turns.forEach((turn, t) => {
      if (turn.prompt && messages.at(-1)?.role !== "user")
        messages.push({ role: "user", content: `prompt ${t}` });
      const ids = Array.from({ length: turn.calls }, () => `id${n++}`);
      messages.push({
        role: "assistant",
        content: `turn ${t}`,
        toolCalls: ids.map((id) => ({ id, name: "tool", arguments: "{}" })),
      });
      ids.forEach((id, i) => {
        const skill = turn.skill && i === 0 ? `s${t % 3}` : undefined;
        messages.push(
          skill
            ? { role: "tool", toolCallId: id, toolName: "tool", content: `body ${t}`, meta: { skill } }
            : { role: "tool", toolCallId: id, toolName: "tool", content: "z".repeat(turn.size) },
        );
      });
    });
    return messages;
  });

describe("invariants on random conversations", () => {
  it("every safe cut point leaves a conversation with intact pairs", () => {
    fc.assert(
      fc.property(arbitraryConversation, (messages) => {
        for (const cut of safeCutPoints(messages)) {
          const kept = messages.slice(cut);
          expect(kept[0].role).not.toBe("tool");
          expect(repairPairs(kept).changes).toBe(0);
        }
      }),
    );
  });

  it("compaction keeps pairs intact and every loaded skill in context", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryConversation,
        fc.integer({ min: 2_000, max: 40_000 }),
        async (messages, window) => {
          const model = new ScriptedProvider([summaryReply()]);
          const loadedBefore = findLoadedSkills(messages)
            .map((s) => s.name)
            .sort();
          const history = new Conversation(messages);
          await compactorFor(model, window).compactNow(history);
          expect(repairPairs(history.messages).changes).toBe(0);
          expect(
            findLoadedSkills(history.messages)
              .map((s) => s.name)
              .sort(),
          ).toEqual(loadedBefore);
        },
      ),
      { numRuns: 150 },
    );
  });
});
