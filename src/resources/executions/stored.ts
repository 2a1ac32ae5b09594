import type { ExecutionRecord } from '../../flow/types.js';
import type { Sealed } from '../secrets/crypto.js';
import { CarriesJson, reviveWebhookInput } from '../../util/json-text.js';

// The stored form of an execution record: what a batch holds, and how it is read back.

/**
 * A record as stored: `inputOf` names the node whose output is the run's input, written once (as `input`);
 * `sealed` is its real data when the record is masked (src/resources/executions/sealed.ts).
 */
type StoredRecord = ExecutionRecord & { inputOf?: string; sealed?: Sealed };

/** Where a read record keeps its sealed part: a symbol, not enumerable, so no copy, spread or JSON shows it. */
const SEALED = Symbol('sealed');

/** The sealed real data a stored record carries, if any. */
export const sealedOf = (record: ExecutionRecord): Sealed | undefined => (record as { [SEALED]?: Sealed })[SEALED];

/** `record`, carrying `sealed` out of sight (see {@link sealedOf}). */
export function withSealed<T extends ExecutionRecord>(record: T, sealed: Sealed | undefined): T {
  if (sealed) Object.defineProperty(record, SEALED, { value: sealed, enumerable: false, configurable: true });
  return record;
}

/** A record's stored JSON with its sealed part as the field `sealed`, which {@link recordsOf} takes back out of sight. */
export const withSealedJson = (json: string, sealed: Sealed | undefined): string => (sealed ? `${json.slice(0, -1)},"sealed":${JSON.stringify(sealed)}}` : json);

/** Stands for the input in a record serialized without it. */
const INPUT_SLOT = '"input":0,';

/**
 * The JSON of a record to store. A trigger node outputs the run's input as is, so a record would hold the
 * input twice: that node's data is left out and named by `inputOf` instead (the input is most of a webhook
 * run's record, headers included). An input whose JSON text is known (a webhook body that arrived as JSON)
 * is written from that text, which saves serializing it again (a third of a webhook record's cost). The
 * record itself is serialized with those two slots blanked for the moment and put back at once, rather than
 * copied with spreads (a third of the cost again).
 */
export function storedJson(record: ExecutionRecord): string {
  const input = record.input;
  const inputText = CarriesJson.textOf(input);
  let inputOf: string | undefined;
  if (input !== null && typeof input === 'object') {
    for (const id in record.nodes) {
      if (record.nodes[id].data !== input) continue;
      inputOf = id;
      break;
    }
  }
  const node = inputOf === undefined ? undefined : record.nodes[inputOf];
  let json: string;
  try {
    if (node) node.data = null;
    if (inputText !== undefined) record.input = 0;
    json = JSON.stringify(record);
  } finally {
    if (node) node.data = input;
    record.input = input;
  }
  if (inputOf !== undefined) json = `${json.slice(0, -1)},"inputOf":${JSON.stringify(inputOf)}}`;
  if (inputText === undefined) return json;
  // In JSON text a raw quote only opens or closes a key or a string, so the first match is the input's slot
  // (none only for a record whose input is its last key).
  const slot = json.indexOf(INPUT_SLOT);
  if (slot < 0) return JSON.stringify({ ...(JSON.parse(json) as StoredRecord), input });
  const at = slot + INPUT_SLOT.length - 2;
  return `${json.slice(0, at)}${inputText}${json.slice(at + 1)}`;
}

/** What unstorage's JSON reader drops from what it reads, against prototype pollution. */
const dropPrototypeKeys = (key: string, value: unknown) =>
  key === '__proto__' || (key === 'constructor' && value !== null && typeof value === 'object' && 'prototype' in value) ? undefined : value;

/**
 * A copy of a record as a read from storage gives it: through JSON, and without the `__proto__` keys (or
 * `constructor` keys holding a `prototype`) that storage's JSON reader drops. A run read in its own process
 * before its record is written reads the same as it will once written.
 */
export function readBack(record: ExecutionRecord): ExecutionRecord {
  const text = JSON.stringify(record);
  const suspect = text.includes('"__proto__":') || text.includes('"constructor":');
  return JSON.parse(text, suspect ? dropPrototypeKeys : undefined) as ExecutionRecord;
}

/** The records of a stored batch, each as it was saved. */
export const recordsOf = (value: unknown): ExecutionRecord[] => {
  const records = (value as { records?: unknown } | null)?.records;
  if (!Array.isArray(records)) return [];
  for (const r of records as StoredRecord[]) {
    if (r.trigger === 'webhook') reviveWebhookInput(r.input);
    if (r.sealed !== undefined) {
      withSealed(r, r.sealed);
      delete r.sealed;
    }
    if (r.inputOf === undefined) continue;
    const node = r.nodes?.[r.inputOf];
    if (node) node.data = r.input;
    delete r.inputOf;
  }
  return records;
};
