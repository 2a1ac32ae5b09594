import type { LlmConfig, WeirConfig } from '../../config.js';
import { WeirError } from '../../errors.js';
import { SECRET, requireSecrets } from '../../providers/credentials.js';
import type { ChatModel } from '../model.js';
import { createAnthropicModel } from './anthropic.js';
import { apiBase } from './client.js';
import { createOpenAiModel } from './openai.js';

export { DEFAULT_LLM_RETRIES, DEFAULT_LLM_TIMEOUT_MS } from './client.js';

/** The names `providers.llm.driver` accepts. */
export const LLM_DRIVERS = ['openai', 'anthropic'] as const;

/** The real services' base URLs, used when `providers.llm.baseUrl` is not set. */
export const DEFAULT_BASE_URL = { openai: 'https://api.openai.com', anthropic: 'https://api.anthropic.com' } as const;

const EXAMPLE = '{"providers": {"llm": {"driver": "openai", "model": "gpt-4o-mini"}}}';
const LOCAL_EXAMPLE = '{"providers": {"llm": {"driver": "openai", "baseUrl": "http://127.0.0.1:11434", "model": "llama3.2"}}}';

/**
 * The language model `providers.llm` configures, with its key from the secrets (`OPENAI_API_KEY`,
 * `ANTHROPIC_API_KEY`). The key is required by the real services (no `baseUrl`, or theirs); a server at
 * another base URL (Ollama, vLLM, a proxy) gets it when it is set. Without `providers.llm` the error says
 * what to set.
 * @example
 * const model = createChatModel(weir.config, await weir.secrets.values())
 */
export function createChatModel(config: WeirConfig, secrets: Record<string, string>): ChatModel {
  const llm: Partial<LlmConfig> | undefined = config.providers?.llm;
  if (!llm) {
    throw new WeirError('INVALID_CONFIG', `no language model configured: set providers.llm in weir.config.json, e.g. ${EXAMPLE}`, {
      hints: [
        `set the key with \`weir secrets set ${SECRET.openaiKey} <key>\` (or driver "anthropic" and ${SECRET.anthropicKey})`,
        `a local server speaking the chat-completions format (Ollama, vLLM, llama.cpp, LM Studio) needs no key: ${LOCAL_EXAMPLE}`,
      ],
    });
  }
  const driver = llm.driver;
  if (driver !== 'openai' && driver !== 'anthropic') {
    throw new WeirError('INVALID_CONFIG', `providers.llm.driver in weir.config.json must be one of ${LLM_DRIVERS.join(', ')}, got ${JSON.stringify(driver)}`);
  }
  if (!llm.model) throw new WeirError('INVALID_CONFIG', `providers.llm.model in weir.config.json is not set: name the model agent nodes use, e.g. ${EXAMPLE}`);
  const official = !llm.baseUrl || apiBase(llm.baseUrl) === DEFAULT_BASE_URL[driver];
  const secret = driver === 'openai' ? SECRET.openaiKey : SECRET.anthropicKey;
  const service = driver === 'openai' ? 'OpenAI' : 'Anthropic';
  const apiKey = official ? requireSecrets(secrets, [secret], service)[secret] : secrets[secret] || undefined;
  const options = {
    baseUrl: llm.baseUrl ?? DEFAULT_BASE_URL[driver],
    apiKey,
    model: llm.model,
    timeoutMs: llm.timeoutMs,
    maxRetries: llm.maxRetries,
    maxTokens: llm.maxTokens,
    // A local server or proxy is not OpenAI: its messages say "the model server" (and its URL where it matters).
    service: official ? service : 'the model server',
  };
  return driver === 'openai' ? createOpenAiModel(options) : createAnthropicModel(options);
}
