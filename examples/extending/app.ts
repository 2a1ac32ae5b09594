import { createHost, createWeir, type Weir } from 'weir';
import { articleSlugs } from './flow.js';
import { createJobQueue } from './job-trigger.js';
import { slugify } from './slugify-node.js';

/**
 * An app with weir inside: the custom node and trigger registered, the KV namespace and the flow made, and the
 * triggers started (`createListener` or `createFetchHandler` start them too, behind HTTP). `stop()` stops the
 * triggers, waits for the executions they started, and closes weir.
 */
export async function startApp(home: string) {
  const jobs = createJobQueue();
  const weir: Weir = await createWeir({ home, nodes: [slugify], triggers: [jobs.trigger] });
  await weir.kv.init('slugs');
  await weir.workflows.create('article-slugs', undefined, { config: articleSlugs, publish: true });
  const host = createHost(weir);
  await host.start();
  return {
    weir,
    jobs,
    async stop() {
      await host.close();
      await weir.close();
    },
  };
}
