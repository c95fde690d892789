// `node --import ./load-log.mjs`: records the modules a run loads (see load-log-hooks.mjs).
import { register } from "node:module";

register("./load-log-hooks.mjs", import.meta.url);
