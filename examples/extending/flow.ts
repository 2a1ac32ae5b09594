import type { FlowConfig, NodeConfigs } from 'weir';
import type { JobTriggerConfig } from './job-trigger.js';
import type { SlugifyConfig } from './slugify-node.js';

/** The built-in node types and this app's own: the compiler checks each node's config against its type. */
export type AppNodes = NodeConfigs & { slugify: SlugifyConfig; job_trigger: JobTriggerConfig };

/** For each job on the `articles` queue: the slug of its title, stored in KV under the article's id. */
export const articleSlugs: FlowConfig<AppNodes> = {
  nodes: [
    { id: 'job_trigger-1', type: 'job_trigger', config: { queue: 'articles' } },
    { id: 'slugify-1', type: 'slugify', config: { text: '{{ $input.title }}', maxLength: 40 } },
    { id: 'kv_set-1', type: 'kv_set', config: { namespace: 'slugs', key: '{{ $input.id }}', value: '{{ $node.slugify-1.data.slug }}' } },
    { id: 'set-1', type: 'set', config: { values: { skipped: '{{ $input.id }}' } } },
  ],
  edges: [
    { source: 'job_trigger-1', target: 'slugify-1' },
    { source: 'slugify-1', target: 'kv_set-1', sourceHandle: 'slug' },
    { source: 'slugify-1', target: 'set-1', sourceHandle: 'empty' },
  ],
};
