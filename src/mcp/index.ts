// MCP servers: configuration, approvals, OAuth tokens, and starting them for a session. What
// loads zod or the SDK at its top (config.ts, launch.ts, connection.ts, status.ts…) is not
// re-exported here: import it by its path, lazily where it can wait (.dependency-cruiser.cjs).
export {
  approvalState,
  approvalsFile,
  projectKey,
  readApprovals,
  recordApprovals,
  resetApprovals,
} from "./approvals.js";
export { browserAuthorizer } from "./oauth-browser.js";
export { AuthStore, authFile, authKey } from "./oauth-store.js";
export { mergeMcpSettings } from "./settings.js";
export { loadMcpConfiguration, MCP_JSON } from "./sources.js";
export { startMcp } from "./start.js";
