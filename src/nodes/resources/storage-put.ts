import { defineNode, type Problem } from '../define.js';
import { asText, service, storageKeyField } from './common.js';

/**
 * `{"key", "content", "contentType"?}`; text is stored as UTF-8, anything else as JSON.
 * data = the stored object's metadata.
 */
export const storagePutNode = defineNode<{ key: string; content: unknown; contentType?: string }>({
  type: 'storage_put',
  docs: {
    summary: 'Writes an object to the file storage',
    output: "The stored object's metadata",
    example: { key: 'reports/{{ $execution.id }}.json', content: { total: 42 } },
  },
  config: {
    type: 'object',
    properties: {
      key: { type: 'string', description: 'The object key, path-like (invoices/2026/a.pdf)' },
      content: { description: 'What to store: text as UTF-8, anything else as JSON' },
      contentType: { type: 'string', description: "The media type (default: from the key's extension; application/json for content that is not text under a key without one)" },
    },
    required: ['key', 'content'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    storageKeyField(config, problems);
    if (config.content === undefined) problems.push({ path: 'content', message: '"content" is required' });
    return problems;
  },
  async run(ctx) {
    const { key, content, contentType } = ctx.config;
    const json = typeof content !== 'string' && !contentType;
    return service(ctx, 'objects').put(String(key), asText(content), { contentType: json && !/\.\w+$/.test(String(key)) ? 'application/json' : contentType });
  },
});
