import { defineNode, type Problem } from '../define.js';
import { asText, service, storageKeyField } from './common.js';

/**
 * `{"key", "content", "contentType"?}`; text is stored as UTF-8, anything else as JSON.
 * data = the stored object's metadata.
 */
export const storagePutNode = defineNode<{ key: string; content: unknown; contentType?: string }>({
  type: 'storage_put',
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
