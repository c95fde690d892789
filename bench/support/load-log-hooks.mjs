// Module hooks for the bench: every module URL hx loads is appended to HX_BENCH_LOAD_LOG.
import { appendFileSync } from "node:fs";

export async function load(url, context, next) {
  if (process.env.HX_BENCH_LOAD_LOG) appendFileSync(process.env.HX_BENCH_LOAD_LOG, `${url}\n`);
  return next(url, context);
}
