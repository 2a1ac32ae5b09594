import type { ErrorInfo, ExecutionRecord, Masker, NodeRecord } from './types.js';

export type { Masker } from './types.js';

/** Secret values shorter than this are not masked: they occur by chance in ordinary text. */
export const MIN_MASKED_LENGTH = 6;

const MASK = '***';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

/**
 * The base64 text of a value wherever it sits in a longer encoded string: base64 packs 3 bytes into 4
 * characters, so the value's characters depend on its offset modulo 3. For each offset, the characters
 * made from the value's bits alone (those shared with neighbouring bytes are dropped), plus the value's own
 * padded encoding.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms = [bytes.toString('base64')];
  for (let shift = 0; shift < 3; shift++) {
    const text = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64').replace(/=+$/, '');
    forms.push(text.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6)));
  }
  return [...forms, ...forms.map(urlSafe)];
}

/** A secret value and its common encodings: URL (component and form), JSON string escape, hex, base64. */
function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  const url = encodeURIComponent(value);
  return [value, url, url.replace(/%20/g, '+'), JSON.stringify(value).slice(1, -1), hex, hex.toUpperCase(), ...base64Forms(bytes)];
}

// Only data is masked: ids, node ids, status words, times, the trigger and error codes stay as they are,
// since storage paths and listings are built from them.
const RECORD_KEPT = new Set(['id', 'workflowId', 'workflowName', 'version', 'status', 'trigger', 'nodes', 'startedAt', 'finishedAt', 'attempts', 'resumedAt', 'retryOf', 'rerunOf', 'hash', 'draft', 'parentExecutionId', 'parentNodeId', 'children', 'underErrorFlow']);
const NODE_KEPT = new Set(['status', 'startedAt', 'finishedAt', 'attempts', 'handle', 'wait']);

/** The masker of a run with no secret to mask. */
export const noMask = Object.assign(<T>(value: T): T => value, { record: (r: ExecutionRecord) => r, finds: () => false }) as Masker;

/**
 * A masker for secret values: it returns a deep copy of a value where every occurrence, in strings, of a
 * secret value of at least {@link MIN_MASKED_LENGTH} characters, or of its base64, hex, URL or JSON-escaped
 * form, is replaced by `***`. Object keys are never rewritten. With no such secret it is the identity
 * (no copy, no work). `finds(json)` is true when the JSON text of a value holds a form it masks (the JSON
 * escape of a value is one of them), so a checkpoint with no secret in its data is written as it is.
 * @example
 * const mask = createMasker(['s3cr3t-token', '1'])
 * mask({ auth: 'Bearer s3cr3t-token', debug: '1' }) // { auth: 'Bearer ***', debug: '1' }
 * mask.finds('{"auth":"Bearer s3cr3t-token"}') // true
 */
export function createMasker(secrets: readonly string[]): Masker {
  const forms = new Set<string>();
  for (const s of secrets) if (typeof s === 'string' && s.length >= MIN_MASKED_LENGTH) for (const f of encodedForms(s)) forms.add(f);
  if (forms.size === 0) return noMask;
  // Longest first, so a form containing another is replaced whole.
  const alternation = (list: Iterable<string>) => [...list].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
  const pattern = new RegExp(alternation(forms), 'g');
  // JSON text holds each string JSON-escaped, so a form is looked for as its escape (the same text for most);
  // without the `g` flag `test` keeps no position between calls.
  const probe = new RegExp(alternation(new Set([...forms].map((f) => JSON.stringify(f).slice(1, -1)))));
  const mask = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(pattern, MASK);
    if (Array.isArray(v)) return v.map(mask);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) out[k] = mask((v as Record<string, unknown>)[k]);
      return out;
    }
    return v;
  };
  const maskError = (e: ErrorInfo): ErrorInfo => ({ ...e, message: mask(e.message) as string });
  // Every field but the structural ones is data (also fields added later, such as a node's logs).
  const maskFields = <T extends object>(r: T, kept: ReadonlySet<string>): T => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) out[k] = kept.has(k) ? v : k === 'error' && v ? maskError(v as ErrorInfo) : mask(v);
    return out as T;
  };
  const masked = new WeakSet<ExecutionRecord>();
  const record = (r: ExecutionRecord): ExecutionRecord => {
    if (masked.has(r)) return r;
    const nodes: Record<string, NodeRecord> = {};
    for (const id of Object.keys(r.nodes)) nodes[id] = maskFields(r.nodes[id], NODE_KEPT);
    const out = { ...maskFields(r, RECORD_KEPT), nodes };
    masked.add(out);
    return out;
  };
  return Object.assign(mask, { record, finds: (text: string) => probe.test(text) }) as Masker;
}
