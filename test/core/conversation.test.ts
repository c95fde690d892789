import { describe, expect, it } from "vitest";
import { type CompactionDetail, Conversation, type ConversationChange } from "../../src/core/conversation.js";
import type { Message } from "../../src/core/messages.js";

const user = (content: string): Message => ({ role: "user", content });
const detail: CompactionDetail = {
  trigger: "manual",
  summary: "s",
  droppedMessages: 2,
  tokensBefore: 100,
  tokensAfter: 10,
  reinjectedSkills: [],
};

describe("Conversation", () => {
  it("starts from the given history without calling it a change", () => {
    const initial = [user("a")];
    const conversation = new Conversation(initial);
    expect(conversation.messages).toEqual([user("a")]);
    expect(conversation.version).toBe(0);
    initial.push(user("not mine"));
    expect(conversation.length).toBe(1);
  });

  it("appends, bumping the version and telling each subscriber once", () => {
    const conversation = new Conversation();
    const seen: ConversationChange[] = [];
    conversation.subscribe((change) => seen.push(change));
    conversation.append(user("one"));
    conversation.append(user("two"));
    expect(conversation.version).toBe(2);
    expect(seen).toEqual([
      { type: "append", message: user("one"), version: 1 },
      { type: "append", message: user("two"), version: 2 },
    ]);
  });

  it("replaces the whole history with a reason; a compaction carries its record", () => {
    const conversation = new Conversation([user("a"), user("b")]);
    const seen: ConversationChange[] = [];
    conversation.subscribe((change) => seen.push(change));
    const view = conversation.messages;
    conversation.replace([user("summary")], "compaction", detail);
    conversation.replace([user("other")], "resume");
    expect(seen.map((c) => (c.type === "replace" ? c.reason : c.type))).toEqual(["compaction", "resume"]);
    expect(seen[0]).toMatchObject({ type: "replace", reason: "compaction", compaction: detail, version: 1 });
    // The view a reader holds follows the history.
    expect(view).toEqual([user("other")]);
    expect(conversation.version).toBe(2);
  });

  it("copies what it is given, so the caller's array cannot change the history", () => {
    const conversation = new Conversation();
    const next = [user("x")];
    conversation.replace(next, "clear");
    next.push(user("sneaked in"));
    expect(conversation.messages).toEqual([user("x")]);
  });

  it("stops telling a subscriber that unsubscribed", () => {
    const conversation = new Conversation();
    let calls = 0;
    const stop = conversation.subscribe(() => {
      calls += 1;
    });
    conversation.append(user("a"));
    stop();
    conversation.append(user("b"));
    expect(calls).toBe(1);
  });

  it("a listener that throws is reported, and the others still hear the change", () => {
    const errors: unknown[] = [];
    const conversation = new Conversation([], (error) => errors.push(error));
    const heard: number[] = [];
    conversation.subscribe(() => {
      throw new Error("broken listener");
    });
    conversation.subscribe((change) => heard.push(change.version));
    conversation.append(user("a"));
    expect(heard).toEqual([1]);
    expect(errors).toHaveLength(1);
    expect(conversation.messages).toHaveLength(1);
  });
});
