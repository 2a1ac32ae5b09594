import type { WaitInfo } from './types.js';

/**
 * What a node returns to make its execution wait: the node's record becomes `waiting` with `wait`, nothing
 * after it runs, and once nothing else runs the execution ends `waiting` and is stored. It continues when the
 * wait ends (`RunOptions.wake`), in whatever process holds it then.
 * @example
 * run: (ctx) => new Suspend({ kind: 'time', until: new Date(Date.now() + 60_000).toISOString() })
 */
export class Suspend {
  constructor(readonly wait: WaitInfo) {}
}
