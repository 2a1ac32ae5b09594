import { defineNode, type Problem } from '../define.js';
import { numberField } from '../fields.js';
import { service, stringField } from './common.js';

/** `{"query", "limit"?, "folder"?}`: full-text search of the knowledge base; data = the hits, best first. */
export const knowledgeSearchNode = defineNode<{ query: string; limit?: number; folder?: string }>({
  type: 'knowledge_search',
  docs: {
    summary: 'Full-text search of the knowledge base',
    output: 'The hits, best first',
    example: { query: '{{ $input.question }}', limit: 5 },
  },
  config: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'The words to search for (full text)' },
      limit: { type: 'integer', minimum: 1, description: 'At most this many hits, 1 to 1000' },
      folder: { type: 'string', description: 'Search only the documents in this folder' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  pure: true,
  validate(config) {
    const problems: Problem[] = [];
    stringField(config, 'query', problems);
    numberField(config, 'limit', problems, { min: 1, max: 1000, integer: true });
    return problems;
  },
  run: async (ctx) => service(ctx, 'knowledge').search(String(ctx.config.query), { limit: ctx.config.limit, folder: ctx.config.folder }),
});
