import { randomBytes, createHash } from 'node:crypto';

/** The letters of generated ids: digits and lower-case letters without i, l, o, u. */
export const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A short random id with a readable prefix, e.g. `wf_3k9x2m4pqa`. */
export function newId(prefix: string, length = 10): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b & 31];
  return `${prefix}_${out}`;
}

/** A URL-safe secret token of `bytes` random bytes (default 24 = 192 bits). */
export const newToken = (bytes = 24): string => randomBytes(bytes).toString('base64url');

/** Hex SHA-256 of a string. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
