export { readTranscriptLines } from "./reader.js";
export {
  formatSessionList,
  listSessions,
  type ResumedSession,
} from "./sessions.js";
