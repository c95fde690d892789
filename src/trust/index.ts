/**
 * Folder trust (docs/permissions.md#folder-trust): a folder the user has not trusted loosens
 * nothing. `loadTrustedSettings(cwd)` reads the settings with trust applied;
 * `projectFileTrusted(file, trust)` says whether a project file (a skill) may grant or run
 * anything; `hx trust` records folders in `~/.hx/trusted-folders.json`.
 */
export { type FolderTrust, loadFolderTrust, trustKey } from "./folder-trust.js";
export { keepRestrictions } from "./restrict-settings.js";
export { readTrustStore, recordTrust, revokeTrust, trustFile } from "./trust-store.js";
export {
  applyFolderTrust,
  howToTrust,
  loadTrustedSettings,
  projectFileTrusted,
  type TrustedSettings,
  trustProblemNotice,
  untrustedNotice,
} from "./trusted-settings.js";
