import { defineNode, type Problem } from '../define.js';
import { asText, kvKeyProperties, service, stringField } from './common.js';

/** `{"namespace", "key", "value"}`; a non-string value is stored as its JSON text. */
export const kvSetNode = defineNode<{ namespace: string; key: string; value: unknown }>({
  type: 'kv_set',
  docs: {
    summary: 'Stores a value under a key of a key-value namespace',
    output: '`{ key, value }` as stored',
    example: { namespace: 'sessions', key: '{{ $input.sessionId }}', value: { user: '{{ $input.user }}' } },
  },
  config: {
    type: 'object',
    properties: {
      ...kvKeyProperties,
      value: { description: 'The value to store: a string as it is, anything else as its JSON text' },
    },
    required: ['namespace', 'key', 'value'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    stringField(config, 'namespace', problems);
    stringField(config, 'key', problems);
    if (config.value === undefined) problems.push({ path: 'value', message: '"value" is required' });
    return problems;
  },
  async run(ctx) {
    const key = String(ctx.config.key);
    const value = asText(ctx.config.value);
    await service(ctx, 'kv').setValue(ctx.config.namespace, key, value);
    return { key, value };
  },
});
