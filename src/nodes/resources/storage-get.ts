import { isTextType } from '../../resources/objects/index.js';
import { defineNode, type Problem } from '../define.js';
import { service, storageKeyField } from './common.js';

/** `{"key"}`; data = the object's metadata and `content` (text, or base64 for binary types). */
export const storageGetNode = defineNode<{ key: string }>({
  type: 'storage_get',
  docs: {
    summary: 'Reads an object of the file storage',
    output: "The object's metadata and `content` (text, or base64 for binary types)",
    example: { key: 'invoices/2026/a.pdf' },
  },
  config: {
    type: 'object',
    properties: {
      key: { type: 'string', description: 'The object key, path-like (invoices/2026/a.pdf)' },
    },
    required: ['key'],
    additionalProperties: false,
  },
  pure: true,
  validate(config) {
    const problems: Problem[] = [];
    storageKeyField(config, problems);
    return problems;
  },
  async run(ctx) {
    const { body, ...info } = await service(ctx, 'objects').get(String(ctx.config.key));
    const text = isTextType(info.contentType);
    return { ...info, encoding: text ? 'utf8' : 'base64', content: body.toString(text ? 'utf8' : 'base64') };
  },
});
