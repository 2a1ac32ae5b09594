import { createHash, createHmac, timingSafeEqual as bytesEqual } from 'node:crypto';

const ALGORITHMS = new Set(['sha1', 'sha256', 'sha384', 'sha512']);
const ENCODINGS = new Set(['hex', 'base64', 'base64url']);
type Encoding = 'hex' | 'base64' | 'base64url';

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`$crypto: ${what} must be a string`);
  return value;
}

function encoding(value: unknown): Encoding {
  const e = value === undefined ? 'hex' : value;
  if (!ENCODINGS.has(e as string)) throw new TypeError(`$crypto: encoding must be one of hex, base64, base64url`);
  return e as Encoding;
}

/**
 * The `$crypto` helpers a Code node gets, implemented on the host (the sandbox has no crypto of its own).
 * They take and return strings only.
 * @example
 * const sig = 'sha256=' + $crypto.hmac('sha256', $env.GITHUB_WEBHOOK_SECRET, $input.rawBody, 'hex')
 * if (!$crypto.timingSafeEqual(sig, $input.headers['x-hub-signature-256'] ?? '')) throw Object.assign(new Error('bad signature'), { status: 401 })
 */
export const cryptoHelpers = {
  /** HMAC of `data` with `key` (`alg`: sha1, sha256, sha384, sha512; `encoding`: hex (default), base64, base64url). */
  hmac(alg: unknown, key: unknown, data: unknown, enc?: unknown): string {
    if (!ALGORITHMS.has(alg as string)) throw new TypeError(`$crypto.hmac: algorithm must be one of ${[...ALGORITHMS].join(', ')}`);
    return createHmac(alg as string, text(key, 'key')).update(text(data, 'data')).digest(encoding(enc));
  },
  /** Compares two strings in constant time (for their length); false when the lengths differ. */
  timingSafeEqual(a: unknown, b: unknown): boolean {
    const x = Buffer.from(text(a, 'a'));
    const y = Buffer.from(text(b, 'b'));
    return x.length === y.length && bytesEqual(x, y);
  },
  /** SHA-256 of `data` (hex by default). */
  sha256(data: unknown, enc?: unknown): string {
    return createHash('sha256').update(text(data, 'data')).digest(encoding(enc));
  },
};
