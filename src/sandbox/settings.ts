/**
 * The `sandbox` key of a settings file (docs/sandbox.md): this folder's fragment of the
 * settings schema (composed in src/settings/) and how files layer.
 */
import type * as z from "zod";
import { concatLists, type MergeRule } from "../config/merge.js";
import { schemaParts, type Zod } from "../config/schema-parts.js";
import { expected } from "../text/schema-messages.js";
import { SANDBOX_MODES } from "./modes.js";

/** `sandbox: { mode, network, writablePaths, required }`: the OS sandbox around bash. */
export function sandboxSettingsSchema(z: Zod) {
  const { text, flag } = schemaParts(z);
  return z.object(
    {
      mode: z.enum(SANDBOX_MODES, { error: expected(`one of ${SANDBOX_MODES.join(", ")}`) }).optional(),
      /**
       * Let sandboxed commands reach the network (default false): `true` for all of it, or only
       * the listed hosts through hx's proxy (`{"allowedDomains": ["*.npmjs.org"], "deniedDomains": []}`).
       */
      network: z
        .union(
          [
            flag(),
            z.object(
              {
                allowedDomains: z
                  .array(text("a host name"), { error: expected("a list of host names") })
                  .optional(),
                deniedDomains: z
                  .array(text("a host name"), { error: expected("a list of host names") })
                  .optional(),
              },
              { error: expected("an object with allowedDomains and deniedDomains") },
            ),
          ],
          { error: expected('true, false, or {"allowedDomains": [...], "deniedDomains": [...]}') },
        )
        .optional(),
      /** More folders commands may write (absolute, `~/...` or relative to the workspace). */
      writablePaths: z.array(text("a folder path"), { error: expected("a list of folder paths") }).optional(),
      /** Refuse commands when the sandbox cannot start, instead of running them unsandboxed. */
      required: flag().optional(),
    },
    { error: expected("an object with mode, network, writablePaths and required") },
  );
}

/** Settings `sandbox: {...}`. */
export type SandboxSettings = z.infer<ReturnType<typeof sandboxSettingsSchema>>;

/** Single values: nearer wins; writable folders add up; `required` once set stays set. */
export const mergeSandboxSettings: MergeRule<SandboxSettings> = (current = {}, next) => ({
  mode: next.mode ?? current.mode,
  network: next.network ?? current.network,
  writablePaths: concatLists(current.writablePaths, next.writablePaths),
  required: current.required === true || next.required === true ? true : (next.required ?? current.required),
});
