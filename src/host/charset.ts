import { WeirError } from '../errors.js';
import { addValue } from './body.js';

/** Turns a body's bytes into text. */
export type TextDecode = (bytes: Buffer) => string;

const utf8: TextDecode = (bytes) => bytes.toString('utf8');
const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);
const CHARSET = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/** The `charset` parameter of a Content-Type header, lower case, or undefined. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const m = contentType ? CHARSET.exec(contentType) : null;
  return m ? (m[1] ?? m[2]).trim().toLowerCase() : undefined;
}

/**
 * The decoder of a declared charset: UTF-8 when none is declared, any label Node's TextDecoder knows
 * (`iso-8859-1`, `windows-1252`, `shift_jis`, ...) otherwise; an unknown one is UNSUPPORTED_MEDIA_TYPE (415),
 * since guessing would hand the flow garbage.
 * @example
 * decoderFor('iso-8859-1')(Buffer.from([0x4a, 0xe9])) // 'Jé'
 */
export function decoderFor(charset: string | undefined): TextDecode {
  if (charset === undefined || UTF8_LABELS.has(charset)) return utf8;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    throw new WeirError('UNSUPPORTED_MEDIA_TYPE', `request charset "${charset}" is not supported`, { hints: ['send the body as UTF-8'] });
  }
  return (bytes) => decoder.decode(bytes);
}

/** True when a decoder is the plain UTF-8 one (whose forms URLSearchParams parses directly). */
export const isUtf8Decoder = (decode: TextDecode): boolean => decode === utf8;

/**
 * Parses a form body in another charset than UTF-8: each `%XX` is a byte of that charset, so names and values
 * are percent-decoded to bytes first and only then decoded (`name=Jos%E9` in ISO-8859-1 is `José`).
 * @example
 * parseFormIn(Buffer.from('name=Jos%E9'), decoderFor('iso-8859-1')) // { name: 'José' }
 */
export function parseFormIn(raw: Buffer, decode: TextDecode): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const pair of raw.toString('latin1').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    addValue(out, decode(percentBytes(key)), decode(percentBytes(value)));
  }
  return out;
}

const PERCENT = /%([0-9a-fA-F]{2})/g;

/** A form component's bytes: `+` is a space, `%XX` a byte, anything else the byte it was read as. */
function percentBytes(latin1: string): Buffer {
  return Buffer.from(latin1.replace(/\+/g, ' ').replace(PERCENT, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
}
