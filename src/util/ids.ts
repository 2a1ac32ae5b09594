import { randomBytes, createHash } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A short random id with a readable prefix, e.g. `wf_3k9x2m4pqa`. */
export function newId(prefix: string, length = 10): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b & 31];
  return `${prefix}_${out}`;
}

/**
 * An id generator like {@link newId} for hot paths: it draws from a pooled block of random bytes instead of
 * asking the system for a few bytes per id (a syscall each).
 * @example
 * const nextExecutionId = createIdSource('exec'); nextExecutionId() // 'exec_8g4gt2zaqe'
 */
export function createIdSource(prefix: string, length = 10): () => string {
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + length > pool.length) {
      pool = randomBytes(4096);
      at = 0;
    }
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHABET[pool[at++] & 31];
    return `${prefix}_${out}`;
  };
}

/** A URL-safe secret token of `bytes` random bytes (default 24 = 192 bits). */
export const newToken = (bytes = 24): string => randomBytes(bytes).toString('base64url');

/** Hex SHA-256 of a string. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
