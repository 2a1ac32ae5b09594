import { errorResponse, WeirError } from '../../errors.js';
import type { Runtime } from '../../runtime/index.js';
import type { Route } from '../../types/http.js';
import type { TriggerRuntime } from '../define.js';

/** A status is read again and again while it changes: no cache may keep an answer. */
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * `/trigger/:token`, any method: the webhook intake decodes the body once it knows the token. While something
 * listens for `webhook:answer` (the metrics), each answer's status and time are told on the bus; otherwise the
 * request costs nothing more.
 */
export const webhookRoutes = ({ runtime, decode, bus }: Pick<TriggerRuntime, 'runtime' | 'decode' | 'bus'>): Route[] => [
  {
    path: '/trigger/:token',
    handle(req, params) {
      if (!bus.all.get('webhook:answer')?.length) return runtime.webhooks.deliver(req, params.token, decode);
      const from = performance.now();
      const tell = (status: number) => bus.emit('webhook:answer', { status, seconds: (performance.now() - from) / 1000 });
      return runtime.webhooks.deliver(req, params.token, decode).then(
        (answer) => (tell(answer.status), answer),
        (err) => {
          // The status the host's one error mapper gives this error.
          tell(errorResponse(err).status);
          throw err;
        },
      );
    },
  },
];

/**
 * `GET /executions/<token>`: the status URL of a `respondImmediately` answer. The token is the only
 * credential, so a forged or altered one, an unknown execution and a pruned record get one same 404.
 */
export const executionStatusRoutes = (runtime: Pick<Runtime, 'status'>): Route[] => [
  {
    methods: ['GET'],
    path: '/executions/:token',
    async handle(_req, params) {
      const view = await runtime.status(params.token);
      if (!view) return { ...errorResponse(new WeirError('NOT_FOUND', 'not found')), headers: NO_STORE };
      return { status: 200, headers: NO_STORE, body: view };
    },
  },
];
