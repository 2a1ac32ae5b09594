import { WeirError } from '../../errors.js';
import type { KeyValueStorage, Storages } from '../../storage/index.js';
import { cloudProbe, createFreshness } from '../../runtime/changes.js';
import { readRecords } from '../../util/refs.js';
import { didYouMean } from '../../util/nearest.js';
import { seal, unseal, type MasterKeySource, type Sealed } from './crypto.js';
import type { Secrets, SecretSummary } from '../../types/secrets.js';

export type { Secrets, SecretSummary } from '../../types/secrets.js';

export { parseMasterKey, KEY_FILE } from './crypto.js';

interface SecretRecord extends Sealed {
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface SecretsOptions {
  storage: Storages;
  /** The instance's master key (`masterKeyOnce` in ./crypto.ts), shared with what else it seals. */
  key: MasterKeySource;
}

// Names are usable as `$env.NAME` in expressions and as environment variable names.
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

const checkName = (name: string) => {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new WeirError('INVALID_INPUT', `invalid secret name ${JSON.stringify(name)}: use letters, digits and "_", not starting with a digit`, {
      hints: ['secrets are read in flows as {{ $env.NAME }}, so names follow environment-variable rules'],
    });
  }
  return name;
};

/**
 * Organization secrets, encrypted at rest with AES-256-GCM in the `cloud` mount (`secrets:<NAME>`). The key
 * comes from `WEIR_MASTER_KEY` or `<home>/master.key` and is loaded only when a value is read or written.
 * @example
 * await weir.secrets.set('STRIPE_KEY', 'sk_live_...')
 * const env = await weir.secrets.values() // { STRIPE_KEY: 'sk_live_...' }
 */
export function createSecrets({ storage, key: source }: SecretsOptions): Secrets {
  const records: KeyValueStorage = storage.view('cloud', 'secrets');
  const key = source.load;
  // Every execution asks for the values: they are kept while the fs probe reports the secrets unchanged
  // (another process's `secrets set` is seen on the next run); set/delete here drop them at once.
  const fresh = createFreshness(cloudProbe(storage, ['secrets']));
  let cached: { gen: number; values: Promise<Record<string, string>>; settled?: Record<string, string> } | null = null;

  /** The cache entry for the secrets as they are now (read again when storage changed), or null when uncacheable. */
  function entryNow(): NonNullable<typeof cached> | null {
    const gen = fresh.check();
    if (gen === null) return null;
    let entry = cached;
    if (entry?.gen !== gen) {
      const values = readValues();
      const made: NonNullable<typeof cached> = (entry = cached = { gen, values });
      values.then(
        (v) => void (made.settled = Object.freeze(v)),
        () => {
          if (cached === made) cached = null;
        },
      );
    }
    return entry;
  }

  async function record(name: string): Promise<SecretRecord> {
    const r = await records.getItem<SecretRecord>(checkName(name));
    if (!r || typeof r !== 'object') throw new WeirError('NOT_FOUND', `secret "${name}" not found${didYouMean(name, await records.getKeys())}`, { hints: ['run `weir secrets list` to see secret names'] });
    return r;
  }

  return {
    /** Names and times of every secret, by name. */
    async list(): Promise<SecretSummary[]> {
      const all = await readRecords<SecretRecord>(records);
      return all.map(({ name, createdAt, updatedAt }) => ({ name, createdAt, updatedAt })).sort((a, b) => a.name.localeCompare(b.name));
    },

    /** Creates or replaces a secret. */
    async set(name: string, value: string): Promise<SecretSummary> {
      checkName(name);
      if (typeof value !== 'string') throw new WeirError('INVALID_INPUT', 'a secret value must be a string');
      const sealed = seal(await key(), name, value);
      const now = new Date().toISOString();
      const previous = await records.getItem<SecretRecord>(name);
      const createdAt = previous && typeof previous === 'object' ? previous.createdAt : now;
      await records.setItem(name, { name, ...sealed, createdAt, updatedAt: now } satisfies SecretRecord);
      cached = null;
      return { name, createdAt, updatedAt: now };
    },

    /** The plaintext of one secret. */
    async get(name: string): Promise<string> {
      const r = await record(name);
      return unseal(await key(), name, r);
    },

    /** Deletes a secret. */
    async delete(name: string): Promise<SecretSummary> {
      const { createdAt, updatedAt } = await record(name);
      await records.removeItem(name);
      cached = null;
      return { name, createdAt, updatedAt };
    },

    /** Every secret's plaintext by name: the executor merges these into `$env` and masks them in records. */
    async values(): Promise<Record<string, string>> {
      const entry = entryNow();
      return { ...(await (entry ? entry.values : readValues())) };
    },

    /**
     * The same values for the executor, without a promise when they are known (read before and unchanged
     * since): every run asks, and most hosts have none or few. Read-only.
     */
    valuesNow(): Readonly<Record<string, string>> | Promise<Record<string, string>> {
      const entry = entryNow();
      return entry ? (entry.settled ?? entry.values) : readValues();
    },
  };

  async function readValues(): Promise<Record<string, string>> {
    const all = await readRecords<SecretRecord>(records);
    if (!all.length) return {};
    const master = await key();
    return Object.fromEntries(all.map((r) => [r.name, unseal(master, r.name, r)]));
  }
}
