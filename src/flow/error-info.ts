import { WeirError } from '../errors.js';
import type { ErrorInfo } from './types.js';

/**
 * An error as recorded: code, message, (for a Code node's `{status}`) the HTTP status, and its details when it has some.
 * @example
 * errorInfo(new WeirError('TIMEOUT', 'too slow')) // { code: 'TIMEOUT', message: 'too slow', status: 504 }
 */
export function errorInfo(err: unknown): ErrorInfo {
  if (err instanceof WeirError) return { code: err.code, message: err.message, ...(err.status !== 500 ? { status: err.status } : {}), ...(err.details !== undefined ? { details: err.details } : {}) };
  return { code: 'EXECUTION_FAILED', message: err instanceof Error ? err.message : String(err) };
}
