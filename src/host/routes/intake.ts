import type { Runtime } from '../../runtime/index.js';
import { requestBody } from '../request-body.js';
import type { Route } from '../types.js';

/** `/trigger/:token`, any method: the webhook intake decodes the body once it knows the token. */
export const webhookRoutes = (webhooks: Pick<Runtime['webhooks'], 'deliver'>): Route[] => [
  {
    path: '/trigger/:token',
    handle: (req, params) => webhooks.deliver(req, params.token, requestBody),
  },
];

/** `POST /api/flows/:ref` (interface events, the browser client's `callFlow`): a JSON body is the input (an empty body is `{}`). */
export const interfaceEventRoutes = (events: Pick<Runtime['events'], 'call'>): Route[] => [
  {
    methods: ['POST'],
    path: '/api/flows/:ref',
    async handle(req, params) {
      const input = (await requestBody(req, req.headers['content-type'] ?? 'application/json')).value;
      return events.call(params.ref, input);
    },
  },
];
