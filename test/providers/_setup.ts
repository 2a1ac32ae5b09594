// Shared setup of the telephony tests: homes with a weir.config.json, published flows and secrets written
// through the library (fast), so that each test spends its subprocesses on the commands under test.
import { createWeir } from '../../src/weir.js';
import { cli, flow, tmpDir, writeJson } from '../_utils.js';

/** A fresh home with the given weir.config.json. */
export function makeHome(config: Record<string, unknown> = {}): string {
  const home = tmpDir('weir-tel-');
  writeJson(home, 'weir.config.json', config);
  return home;
}

/** Runs `fn` on a weir instance of the home and closes it. */
export async function withWeir<T>(home: string, fn: (weir: Awaited<ReturnType<typeof createWeir>>) => Promise<T>): Promise<T> {
  const weir = await createWeir({ home });
  try {
    return await fn(weir);
  } finally {
    await weir.close();
  }
}

/** Creates and publishes a flow with the given trigger (and nodes after it); returns its id. */
export function publishFlow(home: string, name: string, trigger: { type: string; config?: Record<string, unknown> }, nodes: any[] = [], edges: any[] = []): Promise<string> {
  return withWeir(home, async (weir) => (await weir.workflows.create(name, undefined, { config: flow(trigger, nodes, edges) as any, publish: true })).id);
}

/** Sets organization secrets (as `weir secrets set` does). */
export function setSecrets(home: string, values: Record<string, string>): Promise<void> {
  return withWeir(home, async (weir) => {
    for (const [name, value] of Object.entries(values)) await weir.secrets.set(name, value);
  });
}

/** Runs a command and parses its `--json` stdout, failing loudly with stderr when it exits non-zero. */
export async function json<T = any>(home: string, args: string[]): Promise<T> {
  const r = await cli([...args, '--json'], { home });
  if (r.code !== 0) throw new Error(`weir ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.json<T>();
}


/** Polls `probe` until it returns something other than undefined/null, or fails after `ms`. */
export async function until<T>(probe: () => Promise<T | null | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null) return value;
    if (Date.now() > deadline) throw new Error(`nothing after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export { startServe } from '../_utils.js';
