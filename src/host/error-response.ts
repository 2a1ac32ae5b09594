import { CODES, WeirError, toHttp, type ErrorCode } from '../errors.js';
import type { HostResponse } from './types.js';

/**
 * True for a WeirError, also one made by another copy of weir (the CommonJS build of `weir/node-http`
 * bundles its own), so `instanceof` alone would call it unexpected.
 */
const isWeirError = (err: unknown): err is WeirError =>
  err instanceof WeirError || (err instanceof Error && err.name === 'WeirError' && (err as WeirError).code in CODES);

/**
 * The one error mapper of the host: a WeirError keeps its status, code and message; anything else becomes
 * a 500 "internal error" (reported through `report`), so no stack, path or secret reaches a caller.
 * @example
 * errorResponse(new WeirError('NOT_FOUND', 'not found')) // { status: 404, body: { error: { code: 'NOT_FOUND', ... } } }
 */
export function errorResponse(err: unknown, report?: (err: unknown) => void): HostResponse {
  if (!isWeirError(err) || err.code === 'INTERNAL') {
    report?.(err);
    return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } };
  }
  if (err instanceof WeirError) return toHttp(err);
  const { code, message, details, status } = err as { code: ErrorCode; message: string; details?: unknown; status?: number };
  return { status: status ?? CODES[code].status, body: { error: { code, message, ...(details === undefined ? {} : { details }) } } };
}
