/** Replaced at build time by esbuild's `define` (the version and when it was built). */
declare const __HX_BUILD_ID__: string | undefined;

/**
 * What names this build: a cache of results this code computed (parsed skills) is used only by
 * the build that wrote it, so a change to the parser never meets an old cache. Runs from source
 * share one id; their tests keep caches in temporary homes.
 */
export const BUILD_ID: string = typeof __HX_BUILD_ID__ === "string" ? __HX_BUILD_ID__ : "source";
