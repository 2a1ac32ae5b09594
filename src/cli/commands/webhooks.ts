import type { CaptureStatus, CapturedRequest } from '../../triggers/webhook/capture.js';
import type { CommandContext, CommandSpec } from '../types.js';

const id = [{ name: 'workflow-id', required: true }];
const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** The flow's id, name and token, and whether its published trigger is a webhook (`Webhook Trigger Enabled`). */
async function flowOf(ctx: CommandContext) {
  const weir = await ctx.weir();
  const ref = ctx.args['workflow-id']!;
  const local = await weir.workflows.getLocal(ref).catch(() => null);
  const published = await weir.workflows.findPublished(local?.id ?? ref);
  const flow = local ?? published ?? (await weir.workflows.getLocal(ref)); // the last one throws NOT_FOUND
  return { weir, flow, local, published };
}

async function webhookUrl(ctx: CommandContext, token: string): Promise<string> {
  const { publicBase } = await import('../../host/serve-info.js');
  return `${publicBase(ctx.home, ctx.config().publicUrl)}/trigger/${token}`;
}

/** The variable paths of an accepted format: a count, then one `{{ path }}` per line. */
export const variableLines = (variables: string[]): string =>
  `${variables.length} variable${variables.length === 1 ? '' : 's'}\n${variables.map((v) => `  {{ ${v} }}`).join('\n')}`;

const left = (s: number) => `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;

function preview(r: CapturedRequest): string {
  const body = typeof r.body === 'string' ? r.body : JSON.stringify(r.body, null, 2);
  const cut = body.length > 2000 ? `${body.slice(0, 2000)}\n... (${body.length - 2000} more characters)` : body;
  const query = Object.keys(r.query).length ? `\nQuery: ${JSON.stringify(r.query)}` : '';
  return `Captured: ${r.method} at ${r.capturedAt}${query}\nContent-Type: ${r.headers['content-type'] ?? '-'}\nBody:\n${cut}`;
}

function stateText(s: CaptureStatus): string {
  switch (s.state) {
    case 'listening':
      return `State: listening (${left(s.secondsLeft!)} left, until ${s.expiresAt})`;
    case 'captured':
      return `State: captured\n${preview(s.request!)}\nRun \`weir workflows webhook-accept ${s.id}\` to save this format, or webhook-decline to discard it.`;
    case 'expired':
      return `State: expired (the listening window closed at ${s.expiresAt}; nothing was captured)`;
    default:
      return 'State: idle';
  }
}

/** `workflows webhook-url|webhook-listen|webhook-poll|webhook-accept|webhook-decline` (URL, capture). */
export const webhookCommands: CommandSpec[] = [
  {
    name: 'webhook-url',
    summary: 'print the webhook URL and the status flags (Format Confirmed, Webhook Trigger Enabled)',
    args: id,
    async run(ctx) {
      const found = await flowOf(ctx);
      const { publicBase } = await import('../../host/serve-info.js');
      const { webhookUrlInfo } = await import('../../triggers/webhook/url-info.js');
      // The token is in the URL already: the printed data stays as it was.
      const { token: _token, ...data } = await webhookUrlInfo(found.weir, found, publicBase(ctx.home, ctx.config().publicUrl));
      const { url, formatConfirmed, webhookTriggerEnabled: enabled, variables, notLive: why } = data;
      const vars = variables.length ? `\nVariables: ${variables.join(', ')}` : '';
      const warning = why ? `\nnot live yet: ${why}` : '';
      return { data, text: `${url}\nFormat Confirmed: ${yesNo(formatConfirmed)}\nWebhook Trigger Enabled: ${yesNo(enabled)}${vars}${warning}` };
    },
  },
  {
    name: 'webhook-listen',
    summary: 'start a 5-minute session that captures the next request to the webhook URL',
    args: id,
    async run(ctx) {
      const { weir, flow } = await flowOf(ctx);
      const s = await weir.capture.listen(flow.id);
      const url = await webhookUrl(ctx, flow.webhookToken);
      return {
        data: { ...s, url },
        text: `Listening for a webhook to ${flow.name} until ${s.expiresAt} (5 minutes)\nSend a test request to ${url}\nthen run \`weir workflows webhook-poll ${flow.id}\``,
      };
    },
  },
  {
    name: 'webhook-poll',
    summary: 'report the capture session: time left, or a preview of the captured request',
    args: id,
    async run(ctx) {
      const { weir, flow } = await flowOf(ctx);
      const s = await weir.capture.poll(flow.id);
      return { data: s, text: stateText(s) };
    },
  },
  {
    name: 'webhook-accept',
    summary: 'accept the captured format: save its JSON schema and variable paths on the flow',
    args: id,
    async run(ctx) {
      const { weir, flow } = await flowOf(ctx);
      const f = await weir.capture.accept(flow.id);
      return {
        data: { id: f.id, formatConfirmed: true, variables: f.variables, schema: f.schema, confirmedAt: f.confirmedAt, state: 'idle' },
        text: `Format confirmed for ${flow.name}: ${variableLines(f.variables)}`,
      };
    },
  },
  {
    name: 'webhook-decline',
    summary: 'discard the capture (or stop listening); the session goes back to idle',
    args: id,
    async run(ctx) {
      const { weir, flow } = await flowOf(ctx);
      const s = await weir.capture.decline(flow.id);
      return { data: s, text: `Capture discarded for ${flow.name}; state: idle` };
    },
  },
];
