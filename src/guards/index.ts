// Guards: small loop extensions that keep a run sane (the repeated-call guard).

export { createSecretRedaction } from "./secret-redaction.js";
