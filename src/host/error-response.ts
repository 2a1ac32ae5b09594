import { WeirError, toHttp } from '../errors.js';
import type { HostResponse } from './types.js';

/**
 * The one error mapper of the host: a WeirError keeps its status, code and message; anything else becomes
 * a 500 "internal error" (reported through `report`), so no stack, path or secret reaches a caller.
 * @example
 * errorResponse(new WeirError('NOT_FOUND', 'not found')) // { status: 404, body: { error: { code: 'NOT_FOUND', ... } } }
 */
export function errorResponse(err: unknown, report?: (err: unknown) => void): HostResponse {
  if (!(err instanceof WeirError) || err.code === 'INTERNAL') {
    report?.(err);
    return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } };
  }
  const { status, body } = toHttp(err);
  return { status, body };
}
