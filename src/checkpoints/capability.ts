import os from "node:os";
import path from "node:path";
import type { Capability, SessionBasics, SlashCommand } from "../agent/capability.js";
import type { LoopExtension } from "../agent/extension.js";
import { userSettingsDir } from "../config/settings.js";
import { createCheckpointExtension } from "./checkpoint-extension.js";
import { type Checkpoints, conversationBefore } from "./checkpoints.js";
import { formatFilesRewound, formatRewindTurns } from "./format.js";
import { openCheckpoints } from "./index.js";

export interface CheckpointsCapability extends Capability {
  /** For subagents' loops: their calls are snapshotted too, in the session's current turn. */
  subagentExtension?: LoopExtension;
}

const MODES = ["both", "files", "conversation"] as const;
type RewindMode = (typeof MODES)[number];

/**
 * Checkpoints (`"checkpoints": false` turns them off): the project is snapshotted around each
 * call that may change files, and `/rewind [N [files|conversation|both]]` goes back to before
 * a user turn. Not in the home folder or `/` (a snapshot would copy all of it).
 */
export function setUpCheckpoints(
  basics: SessionBasics<{ checkpoints?: boolean }>,
  options: { sessionId: string; persist: boolean },
): CheckpointsCapability {
  const root = basics.workspace.root;
  // A run that keeps no session keeps no checkpoints either (it leaves no files behind).
  if (basics.settings.checkpoints === false || !options.persist) return { name: "checkpoints" };
  if (root === path.resolve(os.homedir()) || root === path.parse(root).root) {
    return {
      name: "checkpoints",
      commands: [
        unavailable(
          `checkpoints are off in ${root} (a snapshot would copy the whole folder); run hx in a project folder`,
        ),
      ],
    };
  }
  const checkpoints = openCheckpoints(userSettingsDir(), root, options.sessionId);
  const onFailure = (reason: string) =>
    basics.log(`warning: checkpoints are off for this session (${reason}); /rewind cannot restore files.`);
  return {
    name: "checkpoints",
    extensions: [createCheckpointExtension(checkpoints, { tracksTurns: true, onFailure })],
    subagentExtension: createCheckpointExtension(checkpoints, { tracksTurns: false, onFailure }),
    commands: [rewindCommand(basics, checkpoints)],
  };
}

function rewindCommand(basics: SessionBasics, checkpoints: Checkpoints): SlashCommand {
  return {
    name: "rewind",
    usage: "/rewind [N [files|conversation|both]]",
    description: "list the turns, or go back to before turn N: files, conversation or both",
    argumentHint: "[turn] [files|conversation|both]",
    async run(args, io) {
      const [turnWord, modeWord] = args.trim().split(/\s+/).filter(Boolean);
      if (!turnWord) {
        io.print(
          `${formatRewindTurns(checkpoints.turns())}\nGo back with /rewind N [files|conversation|both] (default both).`,
        );
        return;
      }
      const turn = Number(turnWord);
      const mode = (modeWord ?? "both") as RewindMode;
      if (!MODES.includes(mode)) {
        io.print(`Unknown part '${modeWord}': use files, conversation or both.`);
        return;
      }
      const records = checkpoints.log.read();
      const target = conversationBefore(basics.conversation.messages, records, turn);
      if ("error" in target && (mode !== "files" || !Number.isInteger(turn) || turn < 1)) {
        io.print(`Cannot rewind: ${target.error}`);
        return;
      }
      if (mode !== "conversation") io.print(formatFilesRewound(await checkpoints.rewindFiles(turn), turn));
      if (mode !== "files" && !("error" in target)) {
        basics.conversation.replace(target.messages, "rewind");
        checkpoints.conversationRewound(turn);
        io.print(`Conversation: back to before turn ${turn}. Its prompt was:\n${target.prompt}`);
      }
    },
  };
}

function unavailable(reason: string): SlashCommand {
  return {
    name: "rewind",
    usage: "/rewind",
    description: "go back to before a turn (off here)",
    run: (_args, io) => io.print(`Cannot rewind: ${reason}.`),
  };
}
