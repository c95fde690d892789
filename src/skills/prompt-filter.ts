import type { PromptFilter, PromptRun, PromptVerdict } from "../agent/capability.js";
import { fitSkillToWindow } from "../context/index.js";
import type { ModelProvider } from "../providers/provider.js";
import { substituteArguments } from "./arguments.js";
import { expandSkillInvocation, parseSlashPrompt, type SkillInvocation } from "./invoke.js";
import type { LoadedSkills } from "./loaded-skills.js";
import { runForkedSkill, runSkillShellLines, type SkillRuntime, skillModel } from "./runtime.js";
import type { Skill } from "./types.js";

export interface SkillPromptDeps {
  skills: () => readonly Skill[];
  /** The skill as its file says now, noted as delivered (see LiveSkills). */
  deliver: (skill: Skill) => Skill;
  loaded: LoadedSkills;
  runtime: SkillRuntime;
  contextWindow: number;
  workspaceRoot: string;
}

/**
 * `/skill-name args` typed by the user: the body (its arguments filled in, then its
 * `` !`cmd` `` lines run) goes into the user's message with `meta.skills`, or, for a
 * `context: fork` skill, the subagent's answer does. Other prompts pass unchanged.
 */
export function skillPromptFilter(deps: SkillPromptDeps): PromptFilter {
  return async (prompt, run) => {
    const slash = parseSlashPrompt(prompt);
    const named = slash && deps.skills().find((s) => s.name === slash.name);
    if (named && !named.userInvocable) {
      return {
        refuse: `/${named.name} is not for the user to invoke (its SKILL.md says user-invocable: false); the model loads it when a task needs it.`,
      };
    }
    if (!named || !slash) return { prompt };
    let current = deps.deliver(named);
    if (current.remote) {
      const fetched = await current.remote.fetchBody();
      if ("error" in fetched) return { refuse: `/${named.name}: ${fetched.error}` };
      current = { ...current, body: fetched.body };
    }
    // The arguments first, then the `!`cmd`` lines (a command may use an argument).
    const withArguments = substituteArguments(current.body, slash.args, current.argumentNames);
    current = { ...current, body: await runSkillShellLines(current, withArguments.text, deps.runtime, run) };
    if (current.fork && deps.runtime.fork) return forked(current, slash.args, deps, run);
    const invocation = expandSkillInvocation(prompt, [current], deps.loaded, {
      substituted: withArguments.substituted,
    });
    if (!invocation) return { prompt };
    const model = await skillModel(current, deps.runtime);
    return fitted(invocation, deps, model ? { model } : {});
  };
}

/** A `context: fork` skill invoked by the user: its subagent's answer is the prompt. */
async function forked(
  skill: Skill,
  args: string,
  deps: SkillPromptDeps,
  run: PromptRun,
): Promise<PromptVerdict> {
  if (!skill.remote) deps.loaded.grantRead(skill.dir);
  const answer = await runForkedSkill(skill, args, deps.runtime, {
    id: `skill_${skill.name}_${Date.now().toString(36)}`,
    emit: run.emit,
    signal: run.signal ?? new AbortController().signal,
  });
  const how = answer.isError ? "failed" : "answered";
  return {
    prompt: `The user invoked the skill /${skill.name}${args ? ` with: ${args}` : ""}. It ran in a subagent (context: fork), which ${how}:\n\n${answer.content}\n\nTell the user the outcome.`,
  };
}

/** The body typed in as /name obeys the size rule of a load_skill result. */
function fitted(
  invocation: SkillInvocation,
  deps: SkillPromptDeps,
  onModel: { model?: ModelProvider },
): PromptVerdict {
  const { span } = invocation;
  const body = invocation.text.slice(span.start, span.end);
  const fit = fitSkillToWindow(body, {
    skill: span.name,
    window: deps.contextWindow,
    workspaceRoot: deps.workspaceRoot,
    id: `skill-${span.name}-${new Date().toISOString().replace(/[:.]/g, "-")}`,
  });
  if (!fit) return { prompt: invocation.text, meta: { skills: [span] }, ...onModel };
  deps.runtime.log(`warning: ${fit.notice}`);
  return {
    prompt: `${fit.content}${invocation.text.slice(span.end)}`,
    meta: { skills: [{ ...span, end: span.start + fit.content.length }] },
    ...onModel,
  };
}
