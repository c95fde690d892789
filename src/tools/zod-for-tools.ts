/**
 * The part of zod that tools build their parameter schemas with (`Tool.parameters` receives
 * this module). The registry imports it on first need; naming the functions, rather than
 * passing zod's whole namespace around, lets the bundle leave the rest of zod out (its
 * locales alone are 350 KB). A tool that needs more of zod adds it here.
 */
export { array, boolean, enum, number, object, record, string, toJSONSchema, unknown } from "zod";
