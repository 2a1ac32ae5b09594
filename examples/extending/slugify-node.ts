import { defineNode } from 'weir';

/** The config of a `slugify` node, as its `run` sees it (expressions already resolved). */
export interface SlugifyConfig {
  text: string;
  separator?: string;
  maxLength?: number;
}

/** Turns a text into a URL slug; edges leave by `slug`, or by `empty` when nothing of the text is left. */
export const slugify = defineNode<SlugifyConfig>({
  type: 'slugify',
  docs: {
    summary: 'Turns a text into a URL slug: edges leave by "slug", or by "empty" when no letter or digit is left',
    output: '`{ slug }`, lower case, accents dropped, runs of other characters replaced by the separator',
    example: { text: '{{ $input.title }}', separator: '-' },
  },
  handles: ['slug', 'empty'],
  config: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to turn into a slug' },
      separator: { type: 'string', maxLength: 1, description: 'Put between words (default "-")' },
      maxLength: { type: 'integer', minimum: 1, description: 'Cut the slug to this many characters (default: no cut)' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  run(ctx) {
    const { text, separator = '-', maxLength } = ctx.config;
    const words = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().match(/[a-z0-9]+/g) ?? [];
    const slug = words.join(separator).slice(0, maxLength);
    ctx.log(`slug of ${ctx.execution.workflowName}`, { slug });
    return { handle: slug ? 'slug' : 'empty', data: { slug } };
  },
});
