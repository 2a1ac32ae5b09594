/** Small statistics helpers shared by the benchmarks. */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** Prints one result row: name, weir figure, baseline figure, ratio and whether the target holds. */
export function report(row: { name: string; weir: string; baseline: string; ratio: number; target: string; ok: boolean }): void {
  console.log(`${row.ok ? 'PASS' : 'MISS'}  ${row.name.padEnd(46)} weir ${row.weir.padEnd(16)} baseline ${row.baseline.padEnd(16)} ratio ${row.ratio.toFixed(2).padStart(6)}  target ${row.target}`);
}
