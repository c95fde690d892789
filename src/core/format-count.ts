/**
 * A whole number with thousands separators, as `toLocaleString("en-US")` writes it (12,345).
 * Written out because the first `toLocaleString` of a process makes V8 build ICU's locale
 * tables, about 110 million instructions (15-25 ms) of start-up for a tool description.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? "-" : "";
  const digits = String(Math.round(Math.abs(n)));
  return sign + digits.replace(/\B(?=(\d{3})+$)/g, ",");
}
