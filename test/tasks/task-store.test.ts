import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TaskStore } from "../../src/tasks/index.js";
import { findCycle } from "../../src/tasks/task.js";
import { tempDir } from "../support/temp-dir.js";

describe("TaskStore", () => {
  it("gives distinct ids to creates that race (two stores on one folder)", async () => {
    const folder = path.join(tempDir("hx-board-"), "tasks");
    const a = new TaskStore(folder);
    const b = new TaskStore(folder);
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).create({ subject: `task ${i}` })),
    );
    const ids = created.map((task) => Number(task.id)).sort((x, y) => x - y);
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await a.read()).tasks).toHaveLength(20);
  });

  it("keeps blocks and blockedBy consistent: addBlocks writes the other task", async () => {
    const store = new TaskStore(path.join(tempDir("hx-board-"), "tasks"));
    await store.create({ subject: "one" });
    await store.create({ subject: "two" });
    await store.update("1", { addBlocks: ["2"] });
    const two = await store.get("2");
    expect(two.blockedBy).toEqual(["1"]);
    expect(two.openBlockers).toEqual(["1"]);
    expect((await store.get("1")).blocks).toEqual(["2"]);
    const onDisk = JSON.parse(readFileSync(path.join(store.folder, "2.json"), "utf8"));
    expect(onDisk.blocks).toBeUndefined();
  });

  it("does not give a deleted task's id to a new task", async () => {
    const store = new TaskStore(path.join(tempDir("hx-board-"), "tasks"));
    await store.create({ subject: "one" });
    await store.create({ subject: "two" });
    await store.update("2", { status: "deleted" });
    expect((await store.create({ subject: "three" })).id).toBe("3");
  });

  it("takes over a lock left by a process that is gone", async () => {
    const store = new TaskStore(path.join(tempDir("hx-board-"), "tasks"));
    await store.create({ subject: "one" });
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(store.folder, ".lock"), "999999999");
    expect((await store.create({ subject: "two" })).id).toBe("2");
  });
});

describe("findCycle", () => {
  const task = (id: string, blockedBy: string[]) => ({
    id,
    subject: id,
    description: "",
    status: "pending" as const,
    blockedBy,
    createdAt: "",
    updatedAt: "",
  });
  it("finds a cycle through three tasks and none in a diamond", () => {
    expect(findCycle([task("1", ["3"]), task("2", ["1"]), task("3", ["2"])])).toEqual(["1", "3", "2", "1"]);
    expect(
      findCycle([task("1", []), task("2", ["1"]), task("3", ["1"]), task("4", ["2", "3"])]),
    ).toBeUndefined();
  });
});
