import { defineNode, type Problem } from '../define.js';
import { kvKeyProperties, service, stringField } from './common.js';

/** `{"namespace", "key"}`; data = the value (a string), or null when the key is absent. */
export const kvGetNode = defineNode<{ namespace: string; key: string }>({
  type: 'kv_get',
  docs: {
    summary: 'Reads a key of a key-value namespace',
    output: 'The value (a string), or null when the key is absent',
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
  pure: true,
  validate(config) {
    const problems: Problem[] = [];
    stringField(config, 'namespace', problems);
    stringField(config, 'key', problems);
    return problems;
  },
  run: async (ctx) => service(ctx, 'kv').getValue(ctx.config.namespace, String(ctx.config.key)),
});
