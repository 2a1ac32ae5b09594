import busboy from 'busboy';
import { WeirError } from '../errors.js';
import { addValue } from './body.js';

/** A file part of a multipart body, its bytes kept intact. */
export interface FilePart {
  filename: string;
  contentType: string;
  size: number;
  base64: string;
}

type Fields = Record<string, string | FilePart | Array<string | FilePart>>;

const invalid = (err: unknown) => new WeirError('INVALID_INPUT', `request body is not valid multipart/form-data: ${(err as Error).message}`);

/**
 * Parses a `multipart/form-data` body (busboy) into an object of fields: a text field is its string, a file
 * part `{filename, contentType, size, base64}`; a repeated name becomes an array; names are UTF-8. The whole
 * body is already within the host's limit, so no part can be larger: busboy's own per-field limit is lifted to
 * the body's size.
 * @example
 * await parseMultipart('multipart/form-data; boundary=x', raw) // { note: 'hi', file: { filename: 'a.bin', ... } }
 */
export function parseMultipart(contentType: string, raw: Buffer): Promise<Fields> {
  let parser: busboy.Busboy;
  try {
    // Browsers and FormData send field and file names as UTF-8 (busboy reads them as latin1 unless told).
    parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { fieldSize: raw.length, fieldNameSize: raw.length } });
  } catch (err) {
    return Promise.reject(invalid(err));
  }
  const out: Fields = Object.create(null);
  return new Promise((resolve, reject) => {
    parser.on('field', (name, value) => addValue<string | FilePart>(out, name, value));
    parser.on('file', (name, stream, info) => {
      // The part takes its place now, in body order (the fields after it are parsed before its bytes end).
      const part: FilePart = { filename: info.filename ?? '', contentType: info.mimeType, size: 0, base64: '' };
      addValue<string | FilePart>(out, name, part);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const bytes = Buffer.concat(chunks);
        part.size = bytes.length;
        part.base64 = bytes.toString('base64');
      });
    });
    parser.on('close', () => resolve({ ...out }));
    parser.on('error', (err) => reject(invalid(err)));
    parser.end(raw);
  });
}
