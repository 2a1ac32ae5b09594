import { WeirError } from '../errors.js';
import type { ExecutionRecord } from '../flow/types.js';
import type { HostResponse } from '../types/http.js';
import { didYouMean } from '../util/nearest.js';

// The values of an execution record as the Studio reads them: cut where large, or one of them whole.

/** How many characters of a cut value's JSON its preview keeps. */
export const PREVIEW_CHARS = 2048;

/** What stands for a value whose JSON is larger than asked for (`CutValue` in the OpenAPI document). */
export interface CutValue {
  $cut: true;
  /** The size of the value's JSON in bytes (UTF-8). */
  bytes: number;
  /** The first {@link PREVIEW_CHARS} characters of that JSON. */
  preview: string;
}

/** Names of the execution's own input and result where a node id goes (`/nodes/$input/data`). */
const INPUT = '$input';
const RESULT = '$result';

/**
 * The value, or a {@link CutValue} when its JSON is larger than `maxBytes` bytes.
 * @example
 * cutValue('x'.repeat(100_000), 65536) // { $cut: true, bytes: 100002, preview: '"xxx…' }
 */
export function cutValue(value: unknown, maxBytes: number): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'string')) return value;
  const json = JSON.stringify(value);
  // A UTF-16 unit is 1 to 3 bytes in UTF-8: most values are judged without counting.
  if (json.length * 3 <= maxBytes) return value;
  const bytes = Buffer.byteLength(json);
  if (bytes <= maxBytes) return value;
  let preview = json.slice(0, PREVIEW_CHARS);
  // Not half of a character written as a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(preview)) preview = preview.slice(0, -1);
  return { $cut: true, bytes, preview } satisfies CutValue;
}

/**
 * The record with each node's `data`, its `input` and its `result` cut where their JSON is larger than
 * `maxBytes` (see {@link cutValue}); the record given is left as it is.
 * @example
 * const small = cutLargeValues(await executions.get(id), 65536)
 */
export function cutLargeValues(record: ExecutionRecord, maxBytes: number): ExecutionRecord {
  // A read record's trigger node holds its input itself: that value is measured once.
  const done = new Map<unknown, unknown>();
  const cut = (value: unknown) => {
    if (value === null || typeof value !== 'object') return cutValue(value, maxBytes);
    if (!done.has(value)) done.set(value, cutValue(value, maxBytes));
    return done.get(value);
  };
  const nodes: ExecutionRecord['nodes'] = {};
  for (const id of Object.keys(record.nodes)) nodes[id] = { ...record.nodes[id], data: cut(record.nodes[id].data) };
  return { ...record, input: cut(record.input), nodes, result: cut(record.result) };
}

/** A node's data in the record (`$input`, `$result`: the execution's), or NOT_FOUND naming the nearest node ids. */
function valueAt(record: ExecutionRecord, nodeId: string): unknown {
  if (nodeId === INPUT) return record.input;
  if (nodeId === RESULT) return record.result;
  if (Object.hasOwn(record.nodes, nodeId)) return record.nodes[nodeId].data;
  const known = [...Object.keys(record.nodes), INPUT, RESULT];
  throw new WeirError('NOT_FOUND', `execution ${record.id} has no node "${nodeId}"${didYouMean(nodeId, known)}`, {
    hints: [`its nodes: ${known.join(', ')}`],
  });
}

/**
 * One value of a record, whole, as a JSON file to download: `<execution id>-<node id>.json`. The record is
 * the one `executions.get` reads, its secrets masked as in every record shown.
 * @example
 * const answer = valueDownload(record, 'http_request-1') // { status: 200, headers: { 'content-disposition': 'attachment; filename="exec_…-http_request-1.json"', … }, body: '…' }
 */
export function valueDownload(record: ExecutionRecord, nodeId: string): HostResponse {
  const json = JSON.stringify(valueAt(record, nodeId) ?? null);
  const filename = `${record.id}-${nodeId}.json`.replace(/[^\w$.-]/g, '_');
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' },
    body: json,
  };
}
