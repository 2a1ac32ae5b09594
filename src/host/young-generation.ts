import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The semi-space size `weir serve` lets V8's young generation grow to, in MiB. */
const SERVE_SEMI_SPACE_MB = 8;

/**
 * Keeps V8's young generation at most `semiSpaceMb` per semi-space, for a process weir owns (`weir serve`),
 * never for an app that embeds weir. V8 grows it to 16 MiB under a request load, which a host pays in
 * resident memory (about 15 MB) without serving faster (the bench measured the same throughput at 8 MiB).
 * `--max-semi-space-size` only counts at node's start; the growth factor is read at each growth, so it is
 * switched off while the space is at the cap and back on when V8 shrank it (an idle host), checked after
 * each GC. A `--max-semi-space-size` given to node wins: nothing is changed then.
 * @example
 * capYoungGeneration() // at the start of `weir serve`
 */
export function capYoungGeneration(semiSpaceMb = SERVE_SEMI_SPACE_MB): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('semi-space'));
  if (given) return;
  const cap = 2 * semiSpaceMb * 1024 * 1024; // new_space counts both semi-spaces
  let growing = true;
  const check = () => {
    const below = (getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0) < cap;
    if (below === growing) return;
    growing = below;
    setFlagsFromString(`--semi-space-growth-factor=${growing ? 2 : 1}`);
  };
  new PerformanceObserver(check).observe({ entryTypes: ['gc'] });
}
