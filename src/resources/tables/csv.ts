import { Readable } from 'node:stream';
import { WeirError } from '../../errors.js';
import { copyTo, type WriteTarget } from '../../util/streams.js';
import type { Row } from './types.js';

/** A CSV being read: its header and its records (values in header order, with the line each ends on). */
export interface CsvInput {
  header: string[];
  records: AsyncIterable<{ values: Array<string | null>; line: number }>;
}

const invalid = (err: unknown) =>
  err instanceof WeirError ? err : new WeirError('INVALID_INPUT', `invalid CSV: ${(err as Error).message}`, { cause: err });

/**
 * Opens a CSV stream (csv-parse, streaming): the first record is the header. An empty field is NULL, a quoted
 * empty field (`""`) the empty string, so exports round-trip; a UTF-8 BOM is skipped.
 * @example
 * const { header, records } = await readCsv(fs.createReadStream('orders.csv'))
 */
export async function readCsv(input: NodeJS.ReadableStream): Promise<CsvInput> {
  const { parse } = await import('csv-parse');
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    info: true,
    cast: (value: string, ctx: { quoting: boolean }) => (value === '' && !ctx.quoting ? null : value),
  });
  input.on('error', (err) => parser.destroy(err));
  const it = (input.pipe(parser) as AsyncIterable<{ record: Array<string | null>; info: { lines: number } }>)[Symbol.asyncIterator]();
  let first: IteratorResult<{ record: Array<string | null> }>;
  try {
    first = await it.next();
  } catch (err) {
    throw invalid(err);
  }
  if (first.done) throw new WeirError('INVALID_INPUT', 'invalid CSV: the file is empty (a header line is required)');
  const header = first.value.record;
  header.forEach((h, i) => {
    if (h === null || h.trim() === '') throw new WeirError('INVALID_INPUT', `invalid CSV: header column ${i + 1} has no name`);
  });
  async function* records() {
    try {
      for (let next = await it.next(); !next.done; next = await it.next()) yield { values: next.value.record, line: next.value.info.lines };
    } catch (err) {
      throw invalid(err);
    }
  }
  return { header: header as string[], records: records() };
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
