import { createProviderClient } from './http.js';
import type { TelephonyProvider, TwilioNumber } from './types.js';

export const TWILIO_URL = 'https://api.twilio.com';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  baseUrl?: string;
  timeoutMs?: number;
}

interface ApiNumber {
  sid: string;
  phone_number: string;
  friendly_name?: string;
  voice_url?: string | null;
  sms_url?: string | null;
}

const toNumber = (n: ApiNumber): TwilioNumber => ({
  sid: n.sid,
  phoneNumber: n.phone_number,
  friendlyName: n.friendly_name,
  voiceUrl: n.voice_url ?? '',
  smsUrl: n.sms_url ?? '',
});

/**
 * A client of Twilio's IncomingPhoneNumbers resource (REST API 2010-04-01, Basic auth with the account SID
 * and auth token): lists the account's numbers and sets where their calls and messages go.
 * @example
 * const twilio = createTwilioProvider({ accountSid, authToken })
 * await twilio.updateNumber('PN123', { smsUrl: 'https://weir.example.com/telephony/twilio/sms' })
 */
export function createTwilioProvider(options: TwilioOptions): TelephonyProvider {
  const api = createProviderClient({
    service: 'Twilio',
    baseUrl: options.baseUrl ?? TWILIO_URL,
    headers: { authorization: `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}` },
    timeoutMs: options.timeoutMs,
    credentialHint: 'check the secrets TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN (`weir secrets set TWILIO_AUTH_TOKEN <token>`)',
    baseUrlKey: 'providers.twilio.baseUrl',
  });
  const numbersPath = `/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/IncomingPhoneNumbers`;

  return {
    accountSid: options.accountSid,

    async listNumbers() {
      const numbers: TwilioNumber[] = [];
      const seen = new Set<string>();
      // Twilio pages with `next_page_uri`, a path (with its query) relative to the API origin.
      let path: string | null = `${numbersPath}.json?PageSize=100`;
      while (path && !seen.has(path)) {
        seen.add(path);
        const page: { incoming_phone_numbers?: ApiNumber[]; next_page_uri?: string | null } = await api.request('GET', path);
        numbers.push(...(page?.incoming_phone_numbers ?? []).map(toNumber));
        path = page?.next_page_uri ?? null;
      }
      return numbers;
    },

    async updateNumber(sid, urls) {
      const form: Record<string, string> = {};
      if (urls.voiceUrl !== undefined) Object.assign(form, { VoiceUrl: urls.voiceUrl }, urls.voiceUrl ? { VoiceMethod: 'POST' } : {});
      if (urls.smsUrl !== undefined) Object.assign(form, { SmsUrl: urls.smsUrl }, urls.smsUrl ? { SmsMethod: 'POST' } : {});
      return toNumber(await api.request<ApiNumber>('POST', `${numbersPath}/${encodeURIComponent(sid)}.json`, { form }));
    },
  };
}
