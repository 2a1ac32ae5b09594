import { defineNode, type Problem } from '../define.js';
import { kvKeyProperties, service, stringField } from './common.js';

/** `{"namespace", "key"}`; data = `{key, deleted}` (false when the key was absent). */
export const kvDeleteNode = defineNode<{ namespace: string; key: string }>({
  type: 'kv_delete',
  docs: {
    summary: 'Deletes a key of a key-value namespace',
    output: '`{ key, deleted }` (false when the key was absent)',
    example: { namespace: 'sessions', key: '{{ $input.sessionId }}' },
  },
  config: {
    type: 'object',
    properties: {
      ...kvKeyProperties,
    },
    required: ['namespace', 'key'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    stringField(config, 'namespace', problems);
    stringField(config, 'key', problems);
    return problems;
  },
  async run(ctx) {
    const key = String(ctx.config.key);
    return { key, deleted: await service(ctx, 'kv').deleteKey(ctx.config.namespace, key) };
  },
});
