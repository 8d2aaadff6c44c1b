/** Min, median (the lower one of an even count) and max of a bench's runs, rounded to 0.01. */
export function spread(values: number[]): [number, number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const round2 = (value: number) => Math.round(value * 100) / 100;
  return [sorted[0]!, sorted[Math.floor((sorted.length - 1) / 2)]!, sorted[sorted.length - 1]!].map(round2) as [number, number, number];
}
