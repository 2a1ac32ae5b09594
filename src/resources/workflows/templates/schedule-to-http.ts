import type { FlowTemplate } from './template.js';

/** The URL a new flow calls until its user puts theirs in. */
const PLACEHOLDER_URL = 'https://example.com/replace-with-your-endpoint';

/** A schedule that calls an HTTP endpoint: every hour, a POST with the time it fired. */
export const scheduleToHttp: FlowTemplate = {
  name: 'schedule-to-http',
  summary: `every hour, POST {"firedAt": ...} to a URL (edit http_request-1's url: ${PLACEHOLDER_URL})`,
  config: () => ({
    nodes: [
      // An interval schedule needs both its value and its unit; `weir serve` runs it.
      { id: 'schedule_trigger-1', type: 'schedule_trigger', label: 'Every hour', config: { scheduleType: 'interval', intervalValue: 1, intervalUnit: 'hours' } },
      {
        id: 'http_request-1',
        type: 'http_request',
        label: 'Call the endpoint',
        config: { method: 'POST', url: PLACEHOLDER_URL, headers: { 'content-type': 'application/json' }, body: { firedAt: '{{ $now }}' }, timeoutMs: 10000 },
      },
    ],
    edges: [{ id: 'e1', source: 'schedule_trigger-1', target: 'http_request-1' }],
    variables: {},
    metadata: { description: 'Calls an HTTP endpoint every hour' },
  }),
  next: [
    'weir workflows get <flow> --json | jq .config > <flow>.json   # set http_request-1\'s url in it, then:',
    'weir workflows save <flow> <flow>.json',
    'weir workflows run <flow>   # one call now',
    'weir workflows publish <flow>',
    'weir serve   # runs it every hour',
  ],
};
