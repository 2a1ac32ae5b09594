import { createMasker, type Masker } from './masking.js';
import type { RunState } from './types.js';

/**
 * The environment variables flows may read as `$env`: only names listed in `weir.config.json` `env.allow`
 * (a trailing `*` allows a prefix, e.g. `"APP_*"`). The default is none, because a host's environment
 * usually holds its own credentials (cloud keys, `WEIR_MASTER_KEY`); organization secrets are the way to
 * hand values to flows.
 * @example
 * allowedEnv({ APP_URL: 'x', AWS_SECRET: 'y' }, ['APP_*']) // { APP_URL: 'x' }
 */
export function allowedEnv(env: Record<string, string | undefined>, allow: readonly string[] = []): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const rule of allow) {
    if (rule.endsWith('*')) {
      const prefix = rule.slice(0, -1);
      for (const [k, v] of Object.entries(env)) if (k.startsWith(prefix)) out[k] = v;
    } else if (env[rule] !== undefined) out[rule] = env[rule];
  }
  return out;
}

/**
 * Lifecycle hooks that put organization secrets into `$env` (secrets win over environment variables) and
 * mask their values in everything recorded or logged.
 * @example
 * const hooksOfSecrets = secretHooks(() => secrets.valuesNow())
 * hooks['execution:start'].push(hooksOfSecrets.start)
 * hooks['execution:end'].unshift(hooksOfSecrets.end)
 */
export function secretHooks(values: () => Readonly<Record<string, string>> | Promise<Record<string, string>>) {
  // The values object stays the same while the secrets are unchanged, so the merged env and the masker
  // (a compiled pattern) are made once per change, not per run.
  let last: { secrets: Readonly<Record<string, string>>; base: RunState['env']; env: RunState['env']; mask: Masker } | null = null;
  const apply = (run: RunState, secrets: Readonly<Record<string, string>>) => {
    if (last?.secrets !== secrets || last.base !== run.env) {
      const list = Object.values(secrets);
      if (!list.length) return;
      last = { secrets, base: run.env, env: Object.freeze({ ...run.env, ...secrets }), mask: createMasker(list) };
    }
    run.env = last.env;
    run.mask = last.mask;
  };
  return {
    /** Synchronous when the values are at hand (no promise per run). */
    start(run: RunState): void | Promise<void> {
      const found = values();
      if (found instanceof Promise) return found.then((secrets) => apply(run, secrets));
      apply(run, found);
    },
    end(run: RunState) {
      run.record = run.mask.record(run.record);
    },
  };
}

/**
 * The masker of the secrets as they are now, made once per change of them (the values object stays the same
 * while they are unchanged): what records stored outside a run are masked with (a `queued` or `debounced`
 * execution, a cancel's final record).
 * @example
 * const masker = currentMasker(() => secrets.valuesNow())
 * const shown = (await masker()).record(record)
 */
export function currentMasker(values: () => Readonly<Record<string, string>> | Promise<Record<string, string>>): () => Promise<Masker> {
  let last: { secrets: Readonly<Record<string, string>>; mask: Masker } | null = null;
  const of = (secrets: Readonly<Record<string, string>>) => {
    if (last?.secrets !== secrets) last = { secrets, mask: createMasker(Object.values(secrets)) };
    return last.mask;
  };
  return async () => of(await values());
}
