/** Replaced at build time by esbuild's `define`; falls back for runs from source. */
declare const __HX_VERSION__: string | undefined;

export const VERSION: string = typeof __HX_VERSION__ === "string" ? __HX_VERSION__ : "0.0.0-dev";
