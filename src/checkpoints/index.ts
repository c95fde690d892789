// Checkpoints and rewind: snapshots of the project in a shadow git repository around each call
// that may change files, and going back to before a user turn (files, conversation or both).
import path from "node:path";
import { CheckpointLog } from "./checkpoint-log.js";
import { Checkpoints } from "./checkpoints.js";
import { checkpointsDir } from "./checkpoints-dir.js";
import { ShadowGit } from "./shadow-git.js";

export {
  Checkpoints,
  conversationBefore,
} from "./checkpoints.js";

export { formatFilesRewound, formatRewindTurns } from "./format.js";
export { checkpointSettingsSchema } from "./settings.js";

/** The checkpoints of one session of a project, kept under `<userHxDir>/checkpoints/`. */
export function openCheckpoints(userHxDir: string, projectRoot: string, sessionId: string): Checkpoints {
  const dir = checkpointsDir(userHxDir, projectRoot);
  return new Checkpoints(
    new ShadowGit(path.join(dir, "git"), projectRoot, sessionId),
    CheckpointLog.forSession(dir, sessionId),
  );
}
