// Shared by the skills e2e tests: a temp project (a git repository) with the seed's two
// project skills, and helpers to read what the fake model server received.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import {
  type FakeModelServer,
  type RecordedRequest,
  startFakeModelServer,
} from "../support/fake-model-server.js";
import { tempDir } from "../support/temp-dir.js";
import { messagesOf, OPENAI_KEY, openaiArgs, toolNamesOf, type WireMessage } from "../support/wire.js";

export const SYNC_UPSTREAM_DESCRIPTION =
  "Use inside 832X when the user invokes /sync-upstream, 同步上游, or sync upstream to update the learn-claude-code reference.";
export const COURSE_BLOG_DESCRIPTION = "为 HarnessX 当前课程生成一篇个人博客草稿。";

export const SYNC_UPSTREAM_BODY = `# /sync-upstream

## 使用场景
用户在 832X 中输入 \`/sync-upstream\`、\`同步上游\` 或 \`sync upstream\` 时使用。

## 步骤
1. 确认工作区干净：\`git status --porcelain\` 没有输出；否则停下来告诉用户。
2. 更新子模块：\`git submodule update --remote references/learn-claude-code\`。
3. 用 \`git -C references/learn-claude-code log -1 --oneline\` 记下新的提交。
4. 用一句话向用户汇报旧提交 → 新提交。

## 规则
- 不提交、不推送：把提交留给用户。
- 子模块冲突时停下，不要自己解决。`;

export const COURSE_BLOG_BODY = `# course-blog

## When to use
The user asks for a blog post about the current HarnessX lesson.

## Steps
1. Read the lesson's notes under \`docs/lessons/\` (the newest file is the current lesson).
2. Write a draft to \`drafts/<lesson-slug>.md\`: a title, why the lesson exists, what changed, how to run it.
3. Keep code excerpts under 20 lines each; link the commit instead of pasting whole files.
4. End with one line that sums the lesson up.`;

/** Writes `<root>/<name>/SKILL.md` from frontmatter lines and a body. */
export function writeSkill(root: string, name: string, frontmatter: string, body: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "SKILL.md"), `---\n${frontmatter}\n---\n\n${body}\n`);
  return dir;
}

/** A git repository with .agents/skills/{course-blog,sync-upstream}. */
function seedProject(): string {
  const root = tempDir("hx-skills-e2e-");
  execFileSync("git", ["init", "-q"], { cwd: root });
  const skills = path.join(root, ".agents", "skills");
  writeSkill(
    skills,
    "course-blog",
    `name: course-blog\ndescription: ${COURSE_BLOG_DESCRIPTION}`,
    COURSE_BLOG_BODY,
  );
  writeSkill(
    skills,
    "sync-upstream",
    `name: sync-upstream\ndescription: ${SYNC_UPSTREAM_DESCRIPTION}`,
    SYNC_UPSTREAM_BODY,
  );
  return root;
}

export const systemOf = (request: RecordedRequest): string => request.body.messages[0].content;
export const toolMessagesOf = (request: RecordedRequest): WireMessage[] =>
  messagesOf(request).filter((m) => m.role === "tool");
export { messagesOf, toolNamesOf };

/** Flags that point hx at the fake server (OpenAI wire) and work in `dir`. */
export const openaiFlags = (server: FakeModelServer, dir: string): string[] =>
  openaiArgs(server, dir, "test-model");

export const KEYS = OPENAI_KEY;

/**
 * Per test: a fresh fake model server and seed project. Read them through the returned object
 * (`fixture.server`, `fixture.project`) inside tests.
 */
export function useSeedFixture(): { server: FakeModelServer; project: string } {
  const fixture = {} as { server: FakeModelServer; project: string };
  beforeEach(async () => {
    fixture.server = await startFakeModelServer();
    fixture.project = seedProject();
  });
  afterEach(async () => {
    await fixture.server.close();
  });
  return fixture;
}
