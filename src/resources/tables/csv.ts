import { Readable } from 'node:stream';
import { WeirError } from '../../errors.js';
import { copyTo, type WriteTarget } from '../../util/streams.js';
import type { Row } from './types.js';

/** A CSV being read: its header, then its records in batches (values in header order, `row` counted from 1). */
export interface CsvInput {
  header: string[];
  batches: AsyncIterable<Array<{ values: Array<string | null>; row: number }>>;
}

const invalid = (err: unknown) =>
  err instanceof WeirError ? err : new WeirError('INVALID_INPUT', `invalid CSV: ${(err as Error).message}`, { cause: err });

/**
 * Which fields of a raw CSV record were quoted. Only needed for records holding empty fields: csv-parse's
 * per-field `cast` context would tell, but costs ten times the parse itself.
 */
export function quotedFields(raw: string): boolean[] {
  const quoted: boolean[] = [];
  let i = 0;
  for (;;) {
    const isQuoted = raw[i] === '"';
    quoted.push(isQuoted);
    if (isQuoted) {
      for (i++; i < raw.length; i++) {
        if (raw[i] === '"' && raw[i + 1] === '"') i++;
        else if (raw[i] === '"') break;
      }
      i++;
    }
    while (i < raw.length && raw[i] !== ',' && raw[i] !== '\n' && raw[i] !== '\r') i++;
    if (raw[i] !== ',') return quoted;
    i++;
  }
}

/** Reads whatever records the parser holds, then waits for more: batches keep per-record await costs away. */
async function* drain<T>(parser: Readable): AsyncGenerator<T[]> {
  for (;;) {
    const batch: T[] = [];
    for (let r = parser.read() as T | null; r !== null; r = parser.read() as T | null) batch.push(r);
    if (batch.length) yield batch;
    if (parser.readableEnded) return;
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        parser.off('readable', done).off('end', done).off('error', done);
        if (err) reject(err);
        else resolve();
      };
      parser.on('readable', done).on('end', done).on('error', done);
    });
  }
}

/**
 * Opens a CSV stream (csv-parse, streaming): the first record is the header. An empty field is NULL, a quoted
 * empty field (`""`) the empty string, so exports round-trip; a UTF-8 BOM is skipped.
 * @example
 * const { header, batches } = await readCsv(fs.createReadStream('orders.csv'))
 */
export async function readCsv(input: NodeJS.ReadableStream): Promise<CsvInput> {
  const { parse } = await import('csv-parse');
  const parser = parse({ bom: true, skip_empty_lines: true, raw: true });
  input.on('error', (err) => parser.destroy(err));
  const source = drain<{ record: string[]; raw: string }>(input.pipe(parser) as never);
  let pending: Array<{ record: string[]; raw: string }> = [];
  try {
    const first = await source.next();
    if (!first.done) pending = first.value;
  } catch (err) {
    throw invalid(err);
  }
  const head = pending.shift();
  if (!head) throw new WeirError('INVALID_INPUT', 'invalid CSV: the file is empty (a header line is required)');
  head.record.forEach((h, i) => {
    if (h.trim() === '') throw new WeirError('INVALID_INPUT', `invalid CSV: header column ${i + 1} has no name`);
  });
  let row = 0;
  const convert = (batch: Array<{ record: string[]; raw: string }>) =>
    batch.map(({ record, raw }) => {
      const quoted = record.includes('') ? quotedFields(raw) : [];
      return { values: record.map((v, i) => (v === '' && !quoted[i] ? null : v)), row: ++row };
    });
  async function* batches() {
    try {
      if (pending.length) yield convert(pending);
      for await (const batch of source) yield convert(batch);
    } catch (err) {
      throw invalid(err);
    }
  }
  return { header: head.record, batches: batches() };
}

const cell = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v);

/**
 * Writes rows as CSV (csv-stringify, streaming) with a header of `columns`: NULL as an empty field, the empty
 * string as `""`. The target is not ended.
 * @example
 * await writeCsv(['id', 'name'], rows, process.stdout)
 */
export async function writeCsv(columns: string[], rows: AsyncIterable<Row>, out: WriteTarget): Promise<number> {
  const { stringify } = await import('csv-stringify');
  let count = 0;
  const records = Readable.from(
    (async function* () {
      for await (const row of rows) {
        count++;
        yield columns.map((c) => cell(row[c]));
      }
    })(),
  );
  const stringifier = stringify({ header: true, columns, cast: { string: (v: string) => (v === '' ? { value: '', quoted_empty: true } : v) } });
  records.on('error', (err) => stringifier.destroy(err));
  await copyTo(records.pipe(stringifier), out);
  return count;
}
