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

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A function returning a deep copy of a value with every occurrence of a secret value (in strings and keys)
 * replaced by `***`; identity when there are no secrets.
 * @example
 * createMasker(['s3cr3t'])({ auth: 'Bearer s3cr3t' }) // { auth: 'Bearer ***' }
 */
export function createMasker(secrets: readonly string[]): <T>(value: T) => T {
  const values = secrets.filter((s) => typeof s === 'string' && s.length > 0).sort((a, b) => b.length - a.length);
  if (values.length === 0) return (v) => v;
  const pattern = new RegExp(values.map(escapeRegExp).join('|'), 'g');
  const maskText = (s: string) => s.replace(pattern, '***');
  const mask = (v: unknown): unknown => {
    if (typeof v === 'string') return maskText(v);
    if (Array.isArray(v)) return v.map(mask);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [maskText(k), mask(x)]));
    return v;
  };
  return mask as <T>(value: T) => T;
}

/**
 * Lifecycle hooks that put organization secrets into `$env` (secrets win over environment variables) and
 * mask their values in everything recorded or logged.
 * @example
 * const secrets = secretHooks(() => weir.secrets.valuesNow())
 * hooks['execution:start'].push(secrets.start)
 * hooks['execution:end'].unshift(secrets.end)
 */
export function secretHooks(values: () => Readonly<Record<string, string>> | Promise<Record<string, string>> | undefined) {
  const apply = (run: RunState, secrets: Readonly<Record<string, string>> | undefined) => {
    if (!secrets) return;
    const list = Object.values(secrets);
    if (!list.length) return;
    run.env = Object.freeze({ ...run.env, ...secrets });
    run.mask = createMasker(list);
  };
  return {
    /** Synchronous when the values are at hand (no promise per run). */
    start(run: RunState): void | Promise<void> {
      const found = values();
      if (found instanceof Promise) return found.then((secrets) => apply(run, secrets));
      apply(run, found);
    },
    end(run: RunState) {
      run.record = run.mask(run.record);
    },
  };
}
