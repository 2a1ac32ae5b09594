import type { FlowTemplate } from './template.js';

// The HMAC covers rawBody, the body exactly as GitHub sent it (a re-serialized body would not match).
const VERIFY = `const secret = $env.GITHUB_WEBHOOK_SECRET;
if (!secret) throw new Error('the secret GITHUB_WEBHOOK_SECRET is not set: weir secrets set GITHUB_WEBHOOK_SECRET');
const expected = 'sha256=' + $crypto.hmac('sha256', secret, $input.rawBody, 'hex');
if (!$crypto.timingSafeEqual(expected, $input.headers['x-hub-signature-256'] ?? '')) {
  throw Object.assign(new Error('bad GitHub signature'), { status: 401 });
}
return { event: $input.headers['x-github-event'] ?? null, delivery: $input.headers['x-github-delivery'] ?? null };`;

/** A GitHub webhook whose signature is checked before anything else runs; redeliveries run once. */
export const signedGithubWebhook: FlowTemplate = {
  name: 'signed-github-webhook',
  summary: 'a GitHub webhook: X-Hub-Signature-256 checked against the secret GITHUB_WEBHOOK_SECRET (401 if wrong), one run per X-GitHub-Delivery',
  config: () => ({
    nodes: [
      // A redelivery carries the same X-GitHub-Delivery: it gets the first answer and runs nothing again.
      { id: 'webhook_trigger-1', type: 'webhook_trigger', label: 'GitHub delivery', config: { respondImmediately: false, idempotencyHeader: 'X-GitHub-Delivery' } },
      // An error thrown with a status becomes the answer: a forged request gets 401 and goes no further.
      { id: 'code-1', type: 'code', label: 'Check the signature', config: { code: VERIFY } },
      { id: 'respond-1', type: 'respond', label: 'Accepted', config: { status: 200, body: { received: '{{ $node.code-1.data.event }}', delivery: '{{ $node.code-1.data.delivery }}' } } },
    ],
    edges: [
      { id: 'e1', source: 'webhook_trigger-1', target: 'code-1' },
      { id: 'e2', source: 'code-1', target: 'respond-1' },
    ],
    variables: {},
    metadata: { description: 'Receives GitHub webhooks signed with GITHUB_WEBHOOK_SECRET' },
  }),
  next: [
    'weir secrets set GITHUB_WEBHOOK_SECRET   # the secret you give GitHub for this webhook',
    'weir workflows publish <flow>',
    'weir serve --public-url https://<your-host>   # give GitHub the URL `weir workflows webhook-url <flow>` prints',
  ],
};
