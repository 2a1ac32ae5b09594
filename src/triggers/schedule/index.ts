import { scheduleTrigger } from './node.js';
import { defineTrigger } from '../define.js';
import { createScheduler } from './scheduler.js';

/**
 * The schedule trigger: one wake timer runs every published schedule; the schedules follow each publish,
 * unpublish or sync (here, on another host or process). Slots are claimed so that hosts sharing a cluster
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

    /** Runs syncs one at a time; a change during a sync runs one more afterwards. */
    let syncing: Promise<void> | null = null;
    let again = false;
    const sync = (): void => {
      if (syncing) {
        again = true;
        return;
      }
      syncing = scheduler
        .sync()
        .catch(rt.onError)
        .finally(() => {
          syncing = null;
          if (again) {
            again = false;
            sync();
          }
        });
    };

    await scheduler.sync();
    const unwatch = rt.onFlowsChanged(sync);
    return Object.assign(
      async () => {
        unwatch();
        scheduler.stop();
        await syncing;
      },
      { list: scheduler.list },
    );
  },
});
