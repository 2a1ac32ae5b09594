import type { FlowConfig } from 'weir';
import type { AppNodes } from './flow.js';

// Each line below is a compile error, and `tsc` fails should one of them ever compile (an unused directive).
export const wrong: FlowConfig<AppNodes>['nodes'] = [
  // @ts-expect-error `seperator` is not a key of the slugify config
  { id: 'slugify-1', type: 'slugify', config: { text: '{{ $input.title }}', seperator: '_' } },
  // @ts-expect-error `maxLength` is a number (or a {{ }} template), not any string
  { id: 'slugify-2', type: 'slugify', config: { text: 'Hello', maxLength: 'long' } },
  // @ts-expect-error a job_trigger needs its `queue`
  { id: 'job_trigger-1', type: 'job_trigger', config: {} },
];
