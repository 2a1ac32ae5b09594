import { createHash } from 'node:crypto';
import { WeirError } from '../errors.js';

// Longer encoded parts are replaced by a hash: file systems cap a file name at 255 bytes.
const MAX_PART = 200;

/**
 * Encodes one user-given part of a storage key (a KV key, a secret name) so that unstorage keeps it whole
 * (no `:`/`/` splitting, nothing dropped after `?`) and every driver can store it: percent-encoding, plus
 * `.`, `*` and `~` escaped so no part is `.`/`..` or hidden. Parts too long for a file name become `~<sha256>`;
 * callers keep the original in the record for those.
 * @example
 * encodeKeyPart('a/b?c') // 'a%2Fb%3Fc'
 */
export function encodeKeyPart(part: string): string {
  const encoded = encodeURIComponent(part).replace(/[.*~!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return encoded.length > MAX_PART ? `~${createHash('sha256').update(part).digest('hex')}` : encoded;
}

/** The original of an {@link encodeKeyPart} result, or `null` for a hashed (long) part. */
export const decodeKeyPart = (encoded: string): string | null => (encoded.startsWith('~') ? null : decodeURIComponent(encoded));

/** Hex SHA-256 of a key: a fixed-length, collision-free storage key for arbitrary user keys. */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * Checks an object-storage key: path-like, no `..` (or `.`/empty) segments, no leading `/`,
 * no NUL or other control characters, at most 1024 characters. Breaking a rule is exit 1 (code RULE).
 * @example
 * checkObjectKey('reports/2024/q1.pdf') // ok
 * checkObjectKey('../etc/passwd')        // throws WeirError RULE
 */
export function checkObjectKey(key: string): string {
  const fail = (why: string): never => {
    throw new WeirError('RULE', `invalid storage key ${JSON.stringify(key)}: ${why}`, {
      hints: ['keys are path-like (`reports/2024/q1.pdf`): no leading "/", no "." or ".." segments, no empty segments, no control characters'],
    });
  };
  if (typeof key !== 'string' || key.length === 0) fail('a key must not be empty');
  if (key.length > 1024) fail('a key is at most 1024 characters');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) fail(key.includes('\0') ? 'NUL is not allowed' : 'control characters are not allowed');
  if (key.startsWith('/') || key.startsWith('\\')) fail('a key must not start with "/"');
  const segments = key.split(/[/\\]/);
  if (segments.some((s) => s === '..')) fail('".." segments are not allowed');
  if (segments.some((s) => s === '.')) fail('"." segments are not allowed');
  if (segments.slice(0, -1).some((s) => s === '')) fail('empty segments ("//") are not allowed');
  return key;
}
