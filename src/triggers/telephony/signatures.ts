import { createHmac, timingSafeEqual } from 'node:crypto';

/** How old a post-call signature may be: 30 minutes; older ones are refused. */
export const POST_CALL_TOLERANCE_SECS = 30 * 60;

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Twilio's request signature: base64 HMAC-SHA1, keyed with the auth token, of the full URL followed by each
 * POST parameter's name and value, sorted by name (repeated names: values sorted, each with its name).
 * @example
 * twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', { CallSid: 'CA1234567890ABCDE', ... })
 * // '0/KCTR6DLpKmkAf8muzZqo1nDgQ='
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string | string[]>): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    for (const v of Array.isArray(value) ? [...value].sort() : [value]) data += name + v;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

// scheme://, user info, host (a bracketed IPv6 address or a name), port, and the rest as it is.
const URL_PARTS = /^(https?:\/\/)([^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)(:\d*)?(.*)$/is;

/**
 * The URL without its port and with one (the scheme's default when it names none): Twilio signs the URL it
 * was given, port or not, and its own validator accepts both forms. The path and query stay as they are.
 * @example
 * portForms('https://weir.example.com/sms?a=1') // ['https://weir.example.com/sms?a=1', 'https://weir.example.com:443/sms?a=1']
 */
export function portForms(url: string): string[] {
  const m = URL_PARTS.exec(url);
  if (!m) return [url];
  const [, scheme, user = '', host, port, rest] = m;
  const withPort = port && port !== ':' ? port : scheme.toLowerCase() === 'https://' ? ':443' : ':80';
  return [scheme + user + host + rest, scheme + user + host + withPort + rest];
}

/**
 * Whether `header` (the `X-Twilio-Signature` value) signs these parameters for this URL, written with or
 * without its port.
 */
export function verifyTwilioSignature(authToken: string, url: string, params: Record<string, string | string[]>, header: string | undefined): boolean {
  return !!header && portForms(url).some((form) => safeEqual(twilioSignature(authToken, form, params), header));
}

/**
 * The `ElevenLabs-Signature` header of a post-call webhook: `t=<unix secs>,v0=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * @example
 * const header = postCallSignature(secret, JSON.stringify(payload), Math.floor(Date.now() / 1000))
 */
export function postCallSignature(secret: string, body: string | Buffer, timestamp: number | string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return `t=${timestamp},v0=${mac}`;
}

/** The outcome of checking a post-call signature: `stale` is a correct signature older than the tolerance. */
export type PostCallCheck = 'ok' | 'missing' | 'invalid' | 'stale';

/**
 * Checks an `ElevenLabs-Signature` header over the raw body bytes as received.
 * @example
 * verifyPostCallSignature(secret, req.rawBody, req.headers['elevenlabs-signature']) // 'ok'
 */
export function verifyPostCallSignature(
  secret: string,
  rawBody: Buffer,
  header: string | undefined,
  now: number = Date.now(),
  toleranceSecs = POST_CALL_TOLERANCE_SECS,
): PostCallCheck {
  if (!header) return 'missing';
  const parts = new Map(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = parts.get('t');
  const v0 = parts.get('v0');
  if (!t || !v0 || !/^\d+$/.test(t)) return 'invalid';
  if (!safeEqual(postCallSignature(secret, rawBody, t), `t=${t},v0=${v0}`)) return 'invalid';
  // Checked after the MAC so that a forger learns nothing from the answer's status.
  return Number(t) * 1000 < now - toleranceSecs * 1000 ? 'stale' : 'ok';
}
