import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WeirError } from '../../errors.js';

/** The AES-256 key that seals secrets, and a short fingerprint stored beside each secret. */
export interface MasterKey {
  key: Buffer;
  /** Which key sealed a record (a hash prefix: tells a wrong key from a damaged record). */
  id: string;
  source: 'env' | 'file' | 'memory';
}

/** A sealed value: AES-256-GCM with a fresh 96-bit IV, the secret's name bound as associated data. */
export interface Sealed {
  keyId: string;
  iv: string;
  tag: string;
  data: string;
}

export const KEY_FILE = 'master.key';

const fingerprint = (key: Buffer) => createHash('sha256').update('weir-secrets:').update(key).digest('hex').slice(0, 16);

/** Parses `WEIR_MASTER_KEY`: 32 bytes as hex (64 characters) or base64. */
export function parseMasterKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(t) ? Buffer.from(t, 'base64') : null;
  if (!key || key.length !== 32) {
    throw new WeirError('INVALID_CONFIG', 'WEIR_MASTER_KEY must be 32 bytes written as hex (64 characters) or base64', {
      hints: ['generate one with `node -e "console.log(require(\'crypto\').randomBytes(32).toString(\'hex\'))"`'],
    });
  }
  return key;
}

/**
 * The master key: `WEIR_MASTER_KEY`, else `<home>/master.key` (created on first use with mode 0600), else a
 * key that lives as long as the instance (memory storage without a home).
 * @example
 * const { key } = await loadMasterKey({ home: '/srv/weir', env: process.env })
 */
export async function loadMasterKey({ home, env }: { home?: string; env: Record<string, string | undefined> }): Promise<MasterKey> {
  if (env.WEIR_MASTER_KEY) {
    const key = parseMasterKey(env.WEIR_MASTER_KEY);
    return { key, id: fingerprint(key), source: 'env' };
  }
  if (!home) {
    const key = randomBytes(32);
    return { key, id: fingerprint(key), source: 'memory' };
  }
  const file = join(home, KEY_FILE);
  const key = (await readKeyFile(file)) ?? (await createKeyFile(home, file));
  return { key, id: fingerprint(key), source: 'file' };
}

/** The master key, loaded on first use and then kept: see {@link masterKeyOnce}. */
export interface MasterKeySource {
  load(): Promise<MasterKey>;
  /** The key once a load finished, else undefined: sealing on a checkpoint's path takes it without a promise. */
  now(): MasterKey | undefined;
}

/**
 * One master key for everything a weir instance seals (its secrets, the real data of its executions'
 * checkpoints), loaded by {@link loadMasterKey} on first use.
 * @example
 * const key = masterKeyOnce({ home: '/srv/weir', env: process.env })
 * const { id } = await key.load()
 */
export function masterKeyOnce(options: { home?: string; env: Record<string, string | undefined> }): MasterKeySource {
  let loading: Promise<MasterKey> | undefined;
  let loaded: MasterKey | undefined;
  return {
    load: () =>
      (loading ??= loadMasterKey(options).then(
        (key) => (loaded = key),
        (err) => {
          loading = undefined;
          throw err;
        },
      )),
    now: () => loaded,
  };
}

async function readKeyFile(file: string): Promise<Buffer | null> {
  try {
    return parseMasterKey(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if (err instanceof WeirError) throw new WeirError('INVALID_CONFIG', `${file} does not hold a valid key (32 bytes as hex)`);
    throw err;
  }
}

async function createKeyFile(home: string, file: string): Promise<Buffer> {
  await mkdir(home, { recursive: true });
  const key = randomBytes(32);
  try {
    // `wx`: when two processes race, exactly one creates the file and the other reads it.
    const handle = await open(file, 'wx', 0o600);
    try {
      await handle.writeFile(`${key.toString('hex')}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(file, 0o600);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    for (let i = 0; i < 50; i++) {
      const existing = await readKeyFile(file).catch(() => null);
      if (existing) return existing;
      // The winner has created but not yet written the file.
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new WeirError('INVALID_CONFIG', `${file} exists but holds no key`);
  }
}

/** Encrypts a secret value; the name is authenticated so a record cannot be moved to another name. */
export function seal(master: MasterKey, name: string, value: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', master.key, iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return { keyId: master.id, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/**
 * Decrypts a sealed value; a wrong key or a tampered record is a clear error, never garbage. `what` names
 * the value in those errors.
 */
export function unseal(master: MasterKey, name: string, sealed: Sealed, what = `secret "${name}"`): string {
  if (sealed.keyId !== master.id) {
    throw new WeirError('INVALID_CONFIG', `${what} was sealed with another master key`, {
      hints: ['set WEIR_MASTER_KEY to the key used when it was stored (every host sharing the cloud storage needs the same key)'],
    });
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', master.key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new WeirError('STORAGE', `${what} cannot be decrypted: the record is damaged`);
  }
}
