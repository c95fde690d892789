// Guards: small loop extensions that keep a run sane (the repeated-call guard).
export { createRepeatedCallGuard } from "./repeated-call-guard.js";
export { createSecretRedaction } from "./secret-redaction.js";
