/**
 * Milliseconds on a monotonic clock, for durations. `performance.now()` is the same clock, but
 * Node 20 loads perf_hooks (~1 ms) the first time `performance` is touched; a run that only
 * times itself need not pay that.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
