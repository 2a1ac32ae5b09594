import type { NodeLogLevel, NodeLogLine } from './types.js';

/** What one node run keeps of its log lines: a flow that logs in a loop must not grow its record without end. */
export const NODE_LOG_LIMITS = { lines: 100, chars: 64 * 1024 };

/**
 * The log lines of one node run, in its output record as `logs`. Past {@link NODE_LOG_LIMITS} further lines
 * are dropped (a line that crosses the character limit is cut there) and one closing line says how many.
 * @example
 * const logs = new NodeLogs()
 * logs.add('info', 'hello', '2026-01-01T00:00:00.000Z') // true: kept
 * logs.lines() // [{ level: 'info', message: 'hello', at: '2026-01-01T00:00:00.000Z' }]
 */
export class NodeLogs {
  #lines: NodeLogLine[] = [];
  #chars = 0;
  #dropped = 0;
  #droppedAt = '';

  /** Keeps a line if the limits allow; returns whether it was kept (dropped lines are not passed on either). */
  add(level: NodeLogLevel, message: string, at: string): boolean {
    const room = NODE_LOG_LIMITS.chars - this.#chars;
    if (this.#lines.length >= NODE_LOG_LIMITS.lines || room <= 0) {
      this.#dropped++;
      this.#droppedAt = at;
      return false;
    }
    const kept = message.length > room ? `${message.slice(0, room)}…` : message;
    this.#chars += kept.length;
    this.#lines.push({ level, message: kept, at });
    return true;
  }

  /** The lines kept, then a note of those dropped. */
  lines(): NodeLogLine[] {
    if (!this.#dropped) return this.#lines;
    const note = `${this.#dropped} more log line${this.#dropped === 1 ? '' : 's'} dropped: a node run keeps at most ${NODE_LOG_LIMITS.lines} lines and ${NODE_LOG_LIMITS.chars / 1024}K characters`;
    return [...this.#lines, { level: 'warn', message: note, at: this.#droppedAt }];
  }
}
