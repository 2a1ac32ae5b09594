import { WeirError } from '../errors.js';

/** Secret names of the provider credentials (ElevenLabs key and webhook secret, Twilio SID and token, language-model keys). */
export const SECRET = {
  elevenlabsKey: 'ELEVENLABS_API_KEY',
  elevenlabsWebhook: 'ELEVENLABS_WEBHOOK_SECRET',
  twilioSid: 'TWILIO_ACCOUNT_SID',
  twilioToken: 'TWILIO_AUTH_TOKEN',
  openaiKey: 'OPENAI_API_KEY',
  anthropicKey: 'ANTHROPIC_API_KEY',
} as const;

/** Reads the organization secrets (`weir.secrets.values()`); an instance without a secrets manager has none. */
export type SecretSource = () => Promise<Record<string, string>>;

/**
 * The named secrets, or an error that says exactly which ones to set and how.
 * @example
 * const { ELEVENLABS_API_KEY } = requireSecrets(await secrets(), ['ELEVENLABS_API_KEY'], 'ElevenLabs')
 */
export function requireSecrets<N extends string>(values: Record<string, string>, names: readonly N[], service: string): Record<N, string> {
  const missing = names.filter((n) => !values[n]);
  if (missing.length) {
    throw new WeirError('INVALID_CONFIG', `${service} needs the secret${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}`, {
      hints: missing.map((n) => `set it with \`weir secrets set ${n} <value>\``),
    });
  }
  return Object.fromEntries(names.map((n) => [n, values[n]])) as Record<N, string>;
}
