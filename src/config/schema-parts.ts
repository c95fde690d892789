import type * as Z from "zod";
import { expected } from "../text/schema-messages.js";

/** zod as a settings fragment receives it: fragments never import zod, so it loads only to check a file. */
export type Zod = typeof Z;

/**
 * The building blocks every settings fragment uses, each with a message that says what was
 * expected in words (`must be true or false, got a string ("yes")`).
 */
export function schemaParts(z: Zod) {
  return {
    text: (what: string) => z.string({ error: expected(what) }),
    flag: () => z.boolean({ error: expected("true or false") }),
    /** A whole number of at least `min`. */
    wholeNumber: (what: string, min = 1) =>
      z.number({ error: expected(what) }).refine((value) => Number.isInteger(value) && value >= min, {
        error: expected(what),
      }),
  };
}
