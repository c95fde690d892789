// Plugins: manifests and the local plugin store (added, approved, removed).
export { type PluginManifest, readPluginManifest } from "./manifest.js";
export { addPlugin, approvePlugin, pluginsDir, readPluginsLock, removePlugin } from "./store.js";
