import { createProviderClient, type ProviderClient } from '../../providers/http.js';

/** How long one model call may take unless `providers.llm.timeoutMs` says otherwise: answers can be long. */
export const DEFAULT_LLM_TIMEOUT_MS = 120_000;

/** How many times a call answered 429 or 5xx is retried unless `providers.llm.maxRetries` says otherwise. */
export const DEFAULT_LLM_RETRIES = 3;

/** What a driver needs: where the API is, its key (optional for local servers), the model and the limits. */
export interface DriverOptions {
  /** An origin, optionally with a path prefix and a trailing `/v1` (not doubled). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  maxRetries?: number;
  maxTokens?: number;
}

/** The base URL without trailing slashes or a final `/v1`: the drivers' paths carry their version. */
export const apiBase = (baseUrl: string): string => baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');

/**
 * The HTTP client of one driver, with the `providers.llm` keys in its messages and the LLM timeouts and retries.
 * @example
 * const api = llmClient({ service: 'OpenAI', secret: 'OPENAI_API_KEY', headers }, options)
 */
export function llmClient(
  who: { service: string; secret: string; headers: Record<string, string> },
  options: DriverOptions,
): ProviderClient {
  return createProviderClient({
    service: who.service,
    baseUrl: apiBase(options.baseUrl),
    headers: who.headers,
    timeoutMs: options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_LLM_RETRIES,
    credentialHint: `check the secret ${who.secret}: \`weir secrets set ${who.secret} <key>\``,
    baseUrlKey: 'providers.llm.baseUrl',
    timeoutKey: 'providers.llm.timeoutMs',
  });
}

/** The hint of a 404: most often the model's name, else a base URL that points at the wrong place. */
export const modelNotFoundHint = (model: string): string =>
  `check the model "${model}": providers.llm.model in weir.config.json (or the node's model) names it; a wrong providers.llm.baseUrl answers 404 too`;
