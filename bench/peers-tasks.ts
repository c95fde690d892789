// What hx and pi send the model for the same scripted work, both in Chat Completions against the
// same fake server: a project with 10 typical skills in `.agents/skills` (both read it), where
// the model loads one skill and answers (the skill-load task), and a 20-request run that loads
// the skill, reads 18 files and answers. The scripted model speaks each harness's tool names
// (hx: load_skill, read_file; pi: read on SKILL.md, as pi's skills documentation says).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { estimateTokens } from "../src/context/tokens.js";
import type { FakeModelServer, RecordedRequest } from "../test/support/fake-model-server.js";
import { timedSpawn } from "./measure.js";

/** The tool calls a harness's model makes for the task, in that harness's names. */
export interface TaskTools {
  loadSkill(name: string, file: string): { name: string; args: Record<string, unknown> };
  readFile(file: string): { name: string; args: Record<string, unknown> };
}

export const HX_TASK_TOOLS: TaskTools = {
  loadSkill: (name) => ({ name: "load_skill", args: { name } }),
  readFile: (file) => ({ name: "read_file", args: { path: file } }),
};

export const PI_TASK_TOOLS: TaskTools = {
  loadSkill: (_name, file) => ({ name: "read", args: { path: file } }),
  readFile: (file) => ({ name: "read", args: { path: file } }),
};

const SKILLS = 10;
const NEEDED = "skill-003";
const FILES = 6;

/** A project with 10 typical skills (~100-char descriptions, ~1.5 KB bodies) and a few source files. */
export function writeTaskProject(project: string): void {
  mkdirSync(path.join(project, ".git"), { recursive: true });
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(3, "0")}`;
    const dir = path.join(project, ".agents", "skills", name);
    mkdirSync(dir, { recursive: true });
    const description = `Does task ${i} the way this project does it. Use it when the user asks about topic ${i} or its files.`;
    const steps = Array.from(
      { length: 12 },
      (_, n) =>
        `${n + 1}. Check the part ${n + 1} of topic ${i} against the project's rules, then record it.`,
    );
    writeFileSync(
      path.join(dir, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n## Steps\n\n${steps.join("\n")}\n\n## Done when\n\nEvery part is checked and the notes are in NOTES.md.\n`,
    );
  }
  mkdirSync(path.join(project, "src"), { recursive: true });
  for (let i = 0; i < FILES; i++) {
    const lines = Array.from({ length: 30 }, (_, n) => `export const value${n} = ${i * 100 + n};`);
    writeFileSync(path.join(project, "src", `part-${i}.ts`), `${lines.join("\n")}\n`);
  }
}

/**
 * Answers the harness's requests as a model doing the task would: the first loads the skill,
 * the next `reads` read files, the last answers. The step is the number of tool results the
 * request carries, so retries or extra requests do not shift the script.
 */
function scriptTask(server: FakeModelServer, project: string, tools: TaskTools, reads: number): void {
  server.replyWith((request, reply) => {
    const step = (request.body?.messages ?? []).filter((m: { role: string }) => m.role === "tool").length;
    if (step === 0) {
      const call = tools.loadSkill(NEEDED, path.join(project, ".agents", "skills", NEEDED, "SKILL.md"));
      reply.tool(call.name, call.args).stop("tool_calls");
    } else if (step <= reads) {
      const call = tools.readFile(path.join(project, "src", `part-${(step - 1) % FILES}.ts`));
      reply.tool(call.name, call.args).stop("tool_calls");
    } else reply.text("Done: the parts are checked.");
  });
}

export interface TaskFigures {
  requests: number;
  /** Characters of the request bodies as JSON, summed. */
  chars: number;
  /** hx's estimate (chars / 4 for ASCII) of the bodies, summed. */
  tokens: number;
  /** Whether the needed skill's body reached the model. */
  skillLoaded: boolean;
}

/** Runs one scripted task to its end; undefined when the harness failed or never got the skill. */
export async function runTask(
  server: FakeModelServer,
  command: { command: string; args: string[]; env: NodeJS.ProcessEnv },
  project: string,
  tools: TaskTools,
  reads: number,
): Promise<TaskFigures | undefined> {
  const before = server.requests.length;
  scriptTask(server, project, tools, reads);
  const result = await timedSpawn(command.command, command.args, { env: command.env, cwd: project });
  const posts = server.requests.slice(before).filter((r: RecordedRequest) => r.method === "POST");
  if (result.code !== 0 || posts.length === 0) return undefined;
  const bodies = posts.map((r) => JSON.stringify(r.body));
  return {
    requests: posts.length,
    chars: bodies.reduce((n, b) => n + b.length, 0),
    tokens: bodies.reduce((n, b) => n + estimateTokens(b), 0),
    skillLoaded: bodies.at(-1)?.includes("Every part is checked") ?? false,
  };
}
