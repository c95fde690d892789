// Evaluating skills' descriptions: trigger queries, scores, the report and the improvement loop.
export {
  type Attempt,
  beats,
  improvementRequest,
  parseProposal,
  passRate,
  replaceDescription,
} from "./improve.js";
export { type RunOutcome, type SkillEvalResult, type SplitFigures, scoreSkill } from "./metrics.js";
export { skillsReadBy } from "./read-trigger.js";
export { type EvalReport, formatEvalTable, totalsOf } from "./report.js";
export { readTriggerFile, starterTriggers, TRIGGERS_FILE, type TriggerQuery } from "./triggers.js";
