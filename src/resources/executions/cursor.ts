import { WeirError } from '../../errors.js';
import type { ExecutionRecord } from '../../flow/types.js';

/** The most executions one page holds. */
export const MAX_PAGE = 500;

/** Where a page ended: its last execution's start and id (ties broken by id). */
export interface CursorPosition {
  startedAt: string;
  id: string;
}

/** The opaque cursor of the page after `last`. */
export const cursorOf = (last: Pick<ExecutionRecord, 'startedAt' | 'id'>): string =>
  Buffer.from(JSON.stringify([last.startedAt, last.id])).toString('base64url');

/** The position a cursor stands for; a cursor weir did not hand out is INVALID_INPUT. */
export function cursorPosition(cursor: string): CursorPosition {
  try {
    const [startedAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof startedAt === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(startedAt))) return { startedAt, id };
  } catch {
    // Reported below, as any other cursor that is not one of ours.
  }
  throw new WeirError('INVALID_INPUT', `"${cursor}" is not a cursor of an execution list`, { hints: ['pass the `nextCursor` of the page before, as it was'] });
}
