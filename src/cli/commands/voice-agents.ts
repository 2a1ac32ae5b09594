import type { InboundConfigured, InboundStatus } from '../../resources/voice-agents/index.js';
import { record } from '../output.js';
import type { CommandSpec, FlagSpec, GroupSpec } from '../types.js';
import { simulateCallCommand, simulateSmsCommand } from './voice-agents-simulate.js';

const agentId = [{ name: 'agent-id', required: true }];
const phone = [{ name: 'phone', required: true }];
const agentFlags: Record<string, FlagSpec> = {
  voice: { type: 'string', summary: 'voice (the provider\'s voice id)', placeholder: 'voice-name' },
  prompt: { type: 'string', summary: 'system prompt', placeholder: 'text' },
  'first-message': { type: 'string', summary: 'what the agent says first', placeholder: 'text' },
};
const agentInput = (flags: Record<string, any>) => ({ voice: flags.voice, prompt: flags.prompt, firstMessage: flags['first-message'] });

function configuredText(r: InboundConfigured): string {
  const lines =
    r.kind === 'call'
      ? [
          `${r.phone}: calls answered by agent ${r.agentId} (${r.provider}, number ${r.phoneNumberId}${r.imported ? ', imported' : ''})`,
          `after each call, flow ${r.flowName} (${r.flowId}) runs`,
          `post-call webhook URL: ${r.postCallUrl} (set it in the voice provider's webhook settings)`,
        ]
      : [`${r.phone}: messages run flow ${r.flowName} (${r.flowId})`, `Twilio SmsUrl (${r.twilioSid}): ${r.smsUrl}`];
  return [...lines, ...r.warnings.map((w) => `warning: ${w}`)].join('\n');
}

function statusText(s: InboundStatus): string {
  if (!s.configured) return `${s.phone}: no inbound configuration (run \`weir voice-agents configure-inbound ${s.phone} <flow-id>\`)`;
  const lines = [`${s.phone}: ${s.agrees ? 'configured, providers agree' : 'configured, providers DISAGREE'}`];
  if (s.call) {
    lines.push(`calls: flow ${s.call.flowName} (${s.call.flowId}), agent ${s.call.agentId} on ${s.call.provider} number ${s.call.phoneNumberId}: ${s.call.agrees ? 'in agreement' : 'not in agreement'}`);
    lines.push(...s.call.problems.map((p) => `  - ${p}`));
  }
  if (s.sms) {
    lines.push(`sms: flow ${s.sms.flowName} (${s.sms.flowId}), SmsUrl ${s.sms.smsUrl} on ${s.sms.twilioSid}: ${s.sms.agrees ? 'in agreement' : 'not in agreement'}`);
    lines.push(...s.sms.problems.map((p) => `  - ${p}`));
  }
  return lines.join('\n');
}

const commands: CommandSpec[] = [
  {
    name: 'list',
    aliases: ['ls'],
    summary: 'voice agents at the voice provider (providers.voice)',
    async run(ctx) {
      const agents = await (await ctx.weir()).voiceAgents.list();
      return { data: agents, columns: ['id', 'name', 'voice', 'createdAt'] };
    },
  },
  {
    name: 'get',
    summary: 'details of a voice agent',
    args: agentId,
    async run(ctx) {
      const agent = await (await ctx.weir()).voiceAgents.get(ctx.args['agent-id']!);
      return { data: agent, text: record({ ...agent }) };
    },
  },
  {
    name: 'create',
    summary: 'create a voice agent',
    args: [{ name: 'name', required: true }],
    flags: agentFlags,
    async run(ctx) {
      const agent = await (await ctx.weir()).voiceAgents.create(ctx.args.name!, agentInput(ctx.flags));
      return { data: agent, text: `created voice agent ${agent.id} (${agent.name})` };
    },
  },
  {
    name: 'update',
    summary: 'update a voice agent (only the options given change)',
    args: agentId,
    flags: { name: { type: 'string', summary: 'new name', placeholder: 'name' }, ...agentFlags },
    async run(ctx) {
      const agent = await (await ctx.weir()).voiceAgents.update(ctx.args['agent-id']!, { name: ctx.flags.name, ...agentInput(ctx.flags) });
      return { data: agent, text: `updated voice agent ${agent.id}\n${record({ ...agent })}` };
    },
  },
  {
    name: 'delete',
    aliases: ['rm'],
    summary: 'delete a voice agent',
    args: agentId,
    async run(ctx) {
      const r = await (await ctx.weir()).voiceAgents.delete(ctx.args['agent-id']!);
      return { data: r, text: `deleted voice agent ${r.id}` };
    },
  },
  {
    name: 'phones',
    summary: 'phone numbers known to the voice provider, with their agents',
    async run(ctx) {
      const phones = await (await ctx.weir()).voiceAgents.phones();
      return { data: phones, columns: ['phoneNumber', 'id', 'label', 'provider', 'agentId', 'agentName'] };
    },
  },
  {
    name: 'import-phone',
    summary: 'make a number known to the voice provider (ElevenLabs imports it from Twilio)',
    args: phone,
    flags: { label: { type: 'string', summary: 'label shown by the provider', placeholder: 'text' } },
    async run(ctx) {
      const p = await (await ctx.weir()).voiceAgents.importPhone(ctx.args.phone!, ctx.flags.label);
      return { data: p, text: `imported ${p.phoneNumber} as ${p.id} (${p.provider})` };
    },
  },
  {
    name: 'twilio-numbers',
    summary: 'numbers of the Twilio account with their webhook status',
    async run(ctx) {
      const numbers = await (await ctx.weir()).voiceAgents.twilioNumbers();
      return { data: numbers, columns: ['phoneNumber', 'sid', 'friendlyName', 'voice', 'sms', 'smsFlow'] };
    },
  },
  {
    name: 'configure-inbound',
    summary: 'make a number\'s calls or messages run a published flow',
    args: [...phone, { name: 'flow-id', required: true }],
    async run(ctx) {
      const r = await (await ctx.weir()).voiceAgents.configureInbound(ctx.args.phone!, ctx.args['flow-id']!);
      return { data: r, text: configuredText(r) };
    },
  },
  {
    name: 'inbound-status',
    summary: 'a number\'s inbound configuration and whether the providers agree',
    args: phone,
    async run(ctx) {
      const s = await (await ctx.weir()).voiceAgents.inboundStatus(ctx.args.phone!);
      return { data: s, text: statusText(s) };
    },
  },
  {
    name: 'reset-inbound',
    summary: 'undo configure-inbound at the providers and forget it',
    args: phone,
    async run(ctx) {
      const r = await (await ctx.weir()).voiceAgents.resetInbound(ctx.args.phone!);
      const parts = [
        r.call && `calls: number ${r.call.phoneNumberId} now ${r.call.agentId ? `answered by agent ${r.call.agentId}` : 'has no agent'}`,
        r.sms && `sms: Twilio SmsUrl of ${r.sms.twilioSid} ${r.sms.smsUrl ? `restored to ${r.sms.smsUrl}` : 'cleared'}`,
      ].filter(Boolean);
      return { data: r, text: [`reset ${r.phone}`, ...parts].join('\n') };
    },
  },
  simulateSmsCommand,
  simulateCallCommand,
];

/** `weir voice-agents` (alias `va`): voice agents, phone numbers and their inbound configuration. */
export const voiceAgents: GroupSpec = {
  name: 'voice-agents',
  aliases: ['va', 'voice-agent'],
  summary: 'Voice agents, phone numbers, inbound calls and SMS',
  commands,
};
