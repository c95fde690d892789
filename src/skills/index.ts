export * from "./catalog.js";
export * from "./discover.js";
export * from "./invoke.js";
export * from "./load-skill-tool.js";
export * from "./parse.js";
export * from "./skill-content.js";
export * from "./suggest.js";
export type * from "./types.js";
export * from "./validate.js";
