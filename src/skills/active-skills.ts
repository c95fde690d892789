import type { ConversationChange } from "../core/conversation.js";
import type { Message } from "../core/messages.js";
import type { Skill } from "./types.js";

/** Permission rules a skill holds while it is active, and which skill holds them. */
export interface ScopedRule {
  rule: string;
  skill: string;
}

export interface ScopedRules {
  allow: ScopedRule[];
  deny: ScopedRule[];
}

/**
 * Which skills are active: a skill becomes active when its body arrives (a load_skill result,
 * a `/name` prompt) and stays so until the next prompt the user types. While active, its
 * `allowed-tools` are pre-approved and its `disallowed-tools` refused (see the permission
 * check's scoped rules). Reads message fields only.
 */
export class ActiveSkills {
  private readonly active = new Set<string>();

  constructor(private readonly skills: () => readonly Skill[]) {}

  /** Follows a conversation: pass it to `conversation.subscribe`. */
  readonly follow = (change: ConversationChange): void => {
    if (change.type === "append") this.see(change.message);
    else if (change.reason === "clear" || change.reason === "resume") this.active.clear();
  };

  names(): string[] {
    return [...this.active];
  }

  rules(): ScopedRules {
    const allow: ScopedRule[] = [];
    const deny: ScopedRule[] = [];
    for (const name of this.active) {
      const skill = this.skills().find((s) => s.name === name);
      if (!skill) continue;
      for (const rule of skill.allowedTools) allow.push({ rule, skill: name });
      for (const rule of skill.disallowedTools) deny.push({ rule, skill: name });
    }
    return { allow, deny };
  }

  private see(message: Message): void {
    if (message.role === "tool") {
      const name = message.isError ? undefined : message.meta?.skill;
      if (name) this.active.add(name);
    } else if (message.role === "user" && message.meta?.kind === undefined) {
      // A prompt the user typed ends the previous skills' turn; a `/name` prompt starts its own.
      this.active.clear();
      for (const span of message.meta?.skills ?? []) this.active.add(span.name);
    }
  }
}
