// Property runs with a printed seed, so any failure replays exactly.
//
// Each property names its own run count for `npm test` (`runs`, chosen so every property file takes a few
// seconds). `PROPS_RUNS` is a MULTIPLIER of that count (default 1), so a heavy property (a flow run per case)
// keeps fewer runs than a cheap one (a parse) at every scale. `npm run test:props` sets it to 50, the long
// campaign: about 10 minutes on 2 cores for every file here (a new property file adds its own share).
// `PROPS_SEED` fixes the seed (default: a random one per property). Each property prints its name, seed and
// run count before it runs, and its time after; to replay a failure exactly, its printed line says:
//   PROPS_SEED=<seed> PROPS_RUNS=<multiplier> node test/run.mjs test/props <file>
// (fast-check is deterministic for a seed and a run count: the same failing case, shrunk the same way).
import fc from 'fast-check';

/** The multiplier of every property's run count (`PROPS_RUNS`, default 1). */
export const scale = (() => {
  const raw = process.env.PROPS_RUNS;
  const n = raw === undefined ? 1 : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`PROPS_RUNS must be a positive number (a multiplier of each property's run count), got "${raw}"`);
  return n;
})();

const fixedSeed = process.env.PROPS_SEED === undefined ? undefined : Number(process.env.PROPS_SEED);
if (fixedSeed !== undefined && !Number.isInteger(fixedSeed)) throw new Error(`PROPS_SEED must be an integer, got "${process.env.PROPS_SEED}"`);

/** The seed and run count of one property, printed so the run can be repeated. */
function settings(name: string, runs: number, file: string): { seed: number; numRuns: number } {
  const seed = fixedSeed ?? (Math.random() * 2 ** 31) | 0;
  const numRuns = Math.max(1, Math.round(runs * scale));
  console.log(`property "${name}": seed ${seed}, ${numRuns} runs (replay: PROPS_SEED=${seed} PROPS_RUNS=${scale} node test/run.mjs test/props ${file})`);
  return { seed, numRuns };
}

/** fast-check's run options: the seed and count, and the failing assertion's own message in the report. */
const options = (name: string, runs: number, file: string) => ({ ...settings(name, runs, file), includeErrorInReport: true });

/**
 * Checks a synchronous property `runs × PROPS_RUNS` times; a failure throws fast-check's report (the shrunk
 * counterexample, the seed and the path).
 * @example
 * check('sorting twice is sorting once', 200, 'sort', fc.property(fc.array(fc.integer()), (a) => { ... }))
 */
export function check<T>(name: string, runs: number, file: string, property: fc.IProperty<T>): void {
  const started = performance.now();
  fc.assert(property, options(name, runs, file));
  done(name, started);
}

/**
 * {@link check} for an asynchronous property (`fc.asyncProperty`).
 * @example
 * await checkAsync('a flow runs each node once', 30, 'executor', fc.asyncProperty(flows, async (f) => { ... }))
 */
export async function checkAsync<T>(name: string, runs: number, file: string, property: fc.IAsyncProperty<T>): Promise<void> {
  const started = performance.now();
  await fc.assert(property, options(name, runs, file));
  done(name, started);
}

const done = (name: string, started: number) => console.log(`property "${name}": passed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
