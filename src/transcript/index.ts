export type { TranscriptEvent, TranscriptLine } from "./events.js";
export { type LockAttempt, type LockOwner, liveOwner, lockFileFor, SessionLock } from "./lock.js";
export {
  legacyProjectKey,
  legacyProjectSessionsDir,
  newSessionId,
  projectKey,
  projectSessionsDir,
  sessionFile,
  sessionsRoot,
} from "./paths.js";
export {
  INTERRUPTED_RESULT,
  parseTranscript,
  readTranscript,
  readTranscriptLines,
  repairPairs,
  type SessionHeader,
  type Transcript,
} from "./reader.js";
export {
  findSession,
  formatSessionList,
  latestSession,
  listSessions,
  type ResumedSession,
  type ResumeOptions,
  resumeSession,
  type SessionInfo,
  type SessionLookup,
} from "./sessions.js";
export { type NewTranscriptOptions, TranscriptWriter } from "./writer.js";
