// Session transcripts: the JSONL writer, the session lock, the Claude Code-shaped copy and the
// project key. Reading transcripts back loads zod (reader.ts, sessions.ts): import those by path.
export { ClaudeTranscript } from "./claude-transcript.js";
export type { TranscriptLine } from "./events.js";
export { SessionLock } from "./lock.js";
export { projectKey } from "./paths.js";
export type { ResumedSession } from "./sessions.js";
export { TranscriptWriter } from "./writer.js";
