import type { WeirBus } from '../events.js';

/** Whether anything listens for `type` (or for every event): an event nobody hears is not built. */
export const hasListeners = (bus: WeirBus, type: string): boolean => !!(bus.all.get(type)?.length || bus.all.get('*')?.length);

/**
 * Emits on the bus; a listener that throws must not break the run it observes.
 * @example
 * emitSafely(bus, 'execution:start', { executionId, workflowId, workflowName, trigger, startedAt })
 */
export function emitSafely(bus: WeirBus, type: string, event: unknown): void {
  try {
    bus.emit(type, event);
  } catch {
    // The listener's own failure is its host's to report; the execution goes on.
  }
}
