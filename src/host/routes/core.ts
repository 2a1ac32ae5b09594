import type { Route } from '../types.js';

/**
 * The browser client served at `/weir-client.js`. It defines `window.callFlow(name, input)`, which POSTs
 * the input to `/api/flows/<name>` on the host that served the script and resolves to the flow's result,
 * or rejects with an Error carrying the host's `code`, `status` and `details`.
 */
export const CLIENT_SOURCE = `/* weir client: callFlow(name, input) -> Promise<result> */
(function () {
  var script = typeof document !== 'undefined' && document.currentScript;
  var base = script && script.src ? new URL(script.src).origin : '';
  function callFlow(name, input) {
    return fetch(base + '/api/flows/' + encodeURIComponent(name), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input === undefined ? {} : input)
    }).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        if (res.ok && data && 'result' in data) return data.result;
        var info = (data && data.error) || {};
        var err = new Error(info.message || ('callFlow ' + name + ' failed with HTTP ' + res.status));
        err.status = res.status;
        err.code = info.code || 'HTTP_' + res.status;
        if (info.details !== undefined) err.details = info.details;
        throw err;
      });
    });
  }
  window.callFlow = callFlow;
})();
`;

/** `GET /healthz`: the host is up. */
export const healthzRoutes: Route[] = [
  {
    methods: ['GET'],
    path: '/healthz',
    handle: async () => ({ status: 200, body: { ok: true } }),
  },
];

/** `GET /weir-client.js`: the browser client. */
export const clientRoutes: Route[] = [
  {
    methods: ['GET'],
    path: '/weir-client.js',
    handle: async () => ({
      status: 200,
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
      body: CLIENT_SOURCE,
    }),
  },
];
