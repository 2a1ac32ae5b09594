import { WeirError } from '../../errors.js';
import type { HostAnswer } from '../../triggers/telephony/simulate.js';
import { readUserFile } from '../read-input.js';
import type { CommandContext, CommandSpec, FlagSpec } from '../types.js';

const urlFlag: Record<string, FlagSpec> = {
  url: { type: 'string', summary: 'the weir host (default: the `weir serve` running on this home, else publicUrl, else http://127.0.0.1:8787)', placeholder: 'url' },
};

/**
 * Where to post, and the public URL the host checks Twilio signatures against: the host running on this
 * home knows both; else `publicUrl` of weir.config.json; else the default address of `weir serve`.
 */
async function hostUrls(ctx: CommandContext): Promise<{ url: string; publicUrl?: string }> {
  const { readServeInfo, DEFAULT_PORT } = await import('../../host/serve-info.js');
  const running = readServeInfo(ctx.home);
  const publicUrl = running?.publicUrl ?? ctx.config().publicUrl;
  return { url: ctx.flags.url ?? running?.url ?? publicUrl ?? `http://127.0.0.1:${DEFAULT_PORT}`, publicUrl };
}

function need(ctx: CommandContext, flag: string, command: string): string {
  const value = ctx.flags[flag];
  if (typeof value !== 'string' || !value) throw new WeirError('USAGE', `missing option --${flag}`, { hints: [`run \`weir voice-agents ${command} --help\``] });
  return value;
}

/** The host's answer for people; no execution started means no published flow listens there. */
function answered(a: HostAnswer, nothing: string) {
  if (!a.executions.length) throw new WeirError('NOT_FOUND', `the host answered ${a.status} but started no flow: ${nothing}`, { details: a });
  const text = [
    `host answered ${a.status}${a.signed ? ' (request signed)' : ' (unsigned: no secret set)'}: ${a.body.trim()}`,
    `started ${a.executions.length} execution${a.executions.length > 1 ? 's' : ''}: ${a.executions.join(', ')}`,
    `outcome: \`weir workflows execution ${a.executions[0]}\``,
  ].join('\n');
  return { data: a, text };
}

/** `weir va simulate-sms <to> --from <n> --body <text>`: a signed Twilio incoming message to the host. */
export const simulateSmsCommand: CommandSpec = {
  name: 'simulate-sms',
  summary: 'post a signed Twilio incoming-message webhook to the running host',
  args: [{ name: 'to', required: true }],
  flags: {
    from: { type: 'string', summary: 'sending number (E.164)', placeholder: 'phone' },
    body: { type: 'string', summary: 'message text', placeholder: 'text' },
    ...urlFlag,
  },
  async run(ctx) {
    const { assertE164 } = await import('../../triggers/telephony/flows.js');
    const { simulateSms } = await import('../../triggers/telephony/simulate.js');
    const to = assertE164(ctx.args.to, 'receiving number');
    const from = assertE164(need(ctx, 'from', 'simulate-sms'), '--from');
    const body = need(ctx, 'body', 'simulate-sms');
    const secrets = await (await ctx.weir()).secrets.values();
    const answer = await simulateSms({ ...(await hostUrls(ctx)), to, from, body, authToken: secrets.TWILIO_AUTH_TOKEN, accountSid: secrets.TWILIO_ACCOUNT_SID });
    return answered(answer, `no published flow has an sms_received_trigger on ${to}`);
  },
};

/** `weir va simulate-call <phone> --transcript <file>`: a signed post-call webhook of a finished call. */
export const simulateCallCommand: CommandSpec = {
  name: 'simulate-call',
  summary: 'post a signed post-call webhook (a finished call) to the running host',
  args: [{ name: 'phone', required: true }],
  flags: {
    transcript: { type: 'string', summary: 'JSON turns [{role, message}] or lines "agent: ..." / "user: ..."', placeholder: 'file' },
    agent: { type: 'string', summary: 'agent id (default: the one configured for the number)', placeholder: 'agent-id' },
    from: { type: 'string', summary: 'caller number (E.164, default +15005550006)', placeholder: 'phone' },
    ...urlFlag,
  },
  async run(ctx) {
    const { assertE164 } = await import('../../triggers/telephony/flows.js');
    const { simulateCall, parseTranscript } = await import('../../triggers/telephony/simulate.js');
    const { callTarget } = await import('../../triggers/telephony/target.js');
    const phone = assertE164(ctx.args.phone);
    const from = assertE164(ctx.flags.from ?? '+15005550006', '--from');
    const file = need(ctx, 'transcript', 'simulate-call');
    const conversation = parseTranscript((await readUserFile(ctx.io.cwd, file)).toString('utf8'), file);
    const weir = await ctx.weir();
    const { agentId, phoneNumberId } = await callTarget(weir.voiceAgents, phone, ctx.flags.agent);
    const secret = (await weir.secrets.values()).ELEVENLABS_WEBHOOK_SECRET;
    const answer = await simulateCall({ url: (await hostUrls(ctx)).url, phone, phoneNumberId, agentId, from, ...conversation, secret });
    return answered(answer, `no published flow has an inbound_call_trigger for agent ${agentId} on ${phoneNumberId}`);
  },
};
