import path from "node:path";
import type { LoopExtension } from "../agent/extension.js";
import { userMessage } from "../core/messages.js";
import type { Workspace } from "../tools/workspace.js";
import type { LiveSkills } from "./live-skills.js";
import { announcementText } from "./live-skills.js";
import type { LoadedSkills } from "./loaded-skills.js";
import type { SkillWatcher } from "./watch.js";

export interface AnnouncerDeps {
  live: LiveSkills;
  loaded: LoadedSkills;
  workspace: Workspace;
  projectRoot: string;
  watcher?: SkillWatcher;
  /** Rescans when an MCP server that finished starting late brought skills (see setUpSkills). */
  refreshRemote?: () => Promise<void>;
  /** Offers load_skill once a skill the model may load appears (when none could at the start). */
  offerLate?: () => void;
}

/**
 * The loop extension that keeps the model's view of the skills current: before a model call
 * it appends one message naming what changed (added, changed, removed skills), never between
 * a call and its result; after a read or write of a file it wakes the conditional skills
 * (`paths:`) that file matches.
 */
export function skillsAnnouncer(deps: AnnouncerDeps): LoopExtension {
  const { live, workspace, projectRoot } = deps;
  return {
    name: "skills-announcer",
    async beforeModelCall(state) {
      await deps.refreshRemote?.();
      deps.offerLate?.();
      const last = state.conversation.messages.at(-1);
      if (last?.role !== "tool" && last?.role !== "user") return; // never between a call and its result
      deps.watcher?.flush();
      const changes = live.takeAnnouncement(deps.loaded);
      if (changes.length > 0)
        state.conversation.append(userMessage(announcementText(changes), { kind: "announcement" }));
    },
    afterToolCall(prepared) {
      const { tool } = prepared;
      if (tool.effect !== "read" && tool.effect !== "write") return undefined;
      if (live.conditional().length === 0) return undefined;
      const subject = tool.ruleSubject?.(prepared.args as never, workspace);
      if (subject === undefined) return undefined;
      const relative = path.relative(projectRoot, path.resolve(workspace.root, subject));
      if (!relative.startsWith("..") && !path.isAbsolute(relative))
        live.touch(relative.split(path.sep).join("/"));
      return undefined;
    },
  };
}
