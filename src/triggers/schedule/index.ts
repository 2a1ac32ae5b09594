import { scheduleTrigger } from './node.js';
import { defineTrigger } from '../define.js';
import { createScheduler } from './scheduler.js';
import { coalesce } from '../../util/coalesce.js';

/**
 * The schedule trigger: one wake timer runs every published schedule; the schedules follow each publish,
 * unpublish or sync (here, on another host or process). Fire times are claimed so that hosts sharing a cluster
 * or a home run each once.
 */
export const schedule = defineTrigger({
  node: scheduleTrigger,
  async start(rt) {
    const scheduler = createScheduler({
      storage: rt.storage,
      bus: rt.bus,
      workflows: { listPublished: rt.published },
      clock: rt.clock,
      claim: rt.claim,
      fire: (flow, input) => rt.dispatcher.run({ flow, input, trigger: 'schedule', background: true }),
    });

    // One sync at a time; publishes seen during one fold into one more afterwards.
    const resync = coalesce(() => scheduler.sync(), rt.onError);

    await scheduler.sync();
    const unwatch = rt.onFlowsChanged(resync.request);
    return Object.assign(
      async () => {
        unwatch();
        scheduler.stop();
        await resync.idle();
      },
      { list: scheduler.list },
    );
  },
});
