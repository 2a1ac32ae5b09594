import type { WeirConfig } from '../config.js';
import { WeirError } from '../errors.js';
import type { Storages } from '../storage/index.js';
import { SECRET, requireSecrets, type SecretSource } from './credentials.js';
import type { TelephonyProvider, VoiceProvider } from './types.js';

export * from './types.js';
export { SECRET, type SecretSource } from './credentials.js';

/** What choosing a provider needs: the config (`providers.*`), the secrets, and storage for `local`. */
export interface ProviderContext {
  storage: Storages;
  config: WeirConfig;
  secrets: SecretSource;
}

/** The names `providers.voice` accepts. */
export const VOICE_PROVIDERS = ['local', 'elevenlabs'] as const;

/**
 * The voice provider named by `providers.voice` (default `local`). Credentials are read now, so a changed
 * secret takes effect on the next command.
 * @example
 * const voice = await voiceProvider({ storage: weir.storage, config: weir.config, secrets: () => weir.secrets.values() })
 */
export async function voiceProvider(ctx: ProviderContext): Promise<VoiceProvider> {
  const name = ctx.config.providers?.voice ?? 'local';
  if (name === 'local') {
    const { createLocalVoiceProvider } = await import('./voice/local.js');
    return createLocalVoiceProvider({ storage: ctx.storage });
  }
  if (name === 'elevenlabs') {
    const values = requireSecrets(await ctx.secrets(), [SECRET.elevenlabsKey], 'ElevenLabs');
    const { createElevenLabsProvider } = await import('./voice/elevenlabs.js');
    const { baseUrl, timeoutMs } = ctx.config.providers?.elevenlabs ?? {};
    return createElevenLabsProvider({ apiKey: values[SECRET.elevenlabsKey], baseUrl, timeoutMs });
  }
  throw new WeirError('INVALID_CONFIG', `providers.voice in weir.config.json must be one of ${VOICE_PROVIDERS.join(', ')}, got ${JSON.stringify(name)}`);
}

/** The Twilio account's credentials when both secrets are set, else null. */
export async function twilioCredentials(ctx: Pick<ProviderContext, 'secrets'>): Promise<{ accountSid: string; authToken: string } | null> {
  const values = await ctx.secrets();
  const accountSid = values[SECRET.twilioSid];
  const authToken = values[SECRET.twilioToken];
  return accountSid && authToken ? { accountSid, authToken } : null;
}

/**
 * The Twilio client, or an error naming the secrets to set.
 * @example
 * const numbers = await (await telephonyProvider(ctx)).listNumbers()
 */
export async function telephonyProvider(ctx: ProviderContext): Promise<TelephonyProvider> {
  const values = requireSecrets(await ctx.secrets(), [SECRET.twilioSid, SECRET.twilioToken], 'Twilio');
  const { createTwilioProvider } = await import('./twilio.js');
  const { baseUrl, timeoutMs } = ctx.config.providers?.twilio ?? {};
  return createTwilioProvider({ accountSid: values[SECRET.twilioSid], authToken: values[SECRET.twilioToken], baseUrl, timeoutMs });
}
