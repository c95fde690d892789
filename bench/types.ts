/** One line of the bench table. */
export interface BenchRow {
  area: string;
  metric: string;
  value: string;
  /** The target, in words ("< 100 ms"); empty when the row only informs. */
  target: string;
  /** undefined = informational */
  ok?: boolean;
}

export type Bench = () => Promise<BenchRow[]>;
