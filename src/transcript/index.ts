export type { TranscriptEvent, TranscriptLine } from "./events.js";
export { newSessionId, projectKey, projectSessionsDir, sessionFile, sessionsRoot } from "./paths.js";
export {
  INTERRUPTED_RESULT,
  parseTranscript,
  readTranscript,
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
  resumeSession,
  type SessionInfo,
  type SessionLookup,
} from "./sessions.js";
export { type NewTranscriptOptions, TranscriptWriter } from "./writer.js";
