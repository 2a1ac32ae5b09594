import type { Route } from '../../types/http.js';
import type { TriggerRuntime } from '../define.js';

/** `POST /api/flows/:ref` (interface events, the browser client's `callFlow`): a JSON body is the input (an empty body is `{}`). */
export const interfaceEventRoutes = ({ runtime, decode }: Pick<TriggerRuntime, 'runtime' | 'decode'>): Route[] => [
  {
    methods: ['POST'],
    path: '/api/flows/:ref',
    async handle(req, params) {
      const decoded = decode(req, req.headers['content-type'] ?? 'application/json');
      const input = (decoded instanceof Promise ? await decoded : decoded).value;
      return runtime.events.call(params.ref, input);
    },
  },
];
