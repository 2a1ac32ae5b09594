import type { JsonSchema } from '../../util/json-schema.js';
import { nullable, string, time } from './common.js';

/** Interfaces and their previews. */
export const interfaceSchemas = {
  Interface: {
    type: 'object',
    description: 'An interface as `weir interface list --json` shows it (`deployed`: its newest deploy, null before the first), with the URL of its running preview (`weir preview`), null when none runs.',
    required: ['id', 'name', 'type', 'createdAt', 'updatedAt', 'deployed', 'previewUrl'],
    properties: {
      id: string,
      name: string,
      type: { enum: ['external', 'internal'] },
      description: string,
      dir: { type: 'string', description: 'The source folder it was created in (on the host machine).' },
      createdAt: time,
      updatedAt: time,
      deployed: nullable({
        type: 'object',
        required: ['version', 'at', 'files', 'bytes'],
        properties: { version: { type: 'integer', minimum: 1 }, at: time, files: { type: 'integer' }, bytes: { type: 'integer' } },
      }),
      previewUrl: nullable(string),
    },
  },
  Preview: {
    type: 'object',
    description: 'A running preview: its dev server URL, and `started`: true when it was started for this request (or for one it came together with), false when it already ran.',
    required: ['id', 'name', 'url', 'started'],
    properties: { id: string, name: string, url: string, started: { type: 'boolean' } },
  },
  PreviewLogs: {
    type: 'object',
    description: "The last lines of a preview's dev-server log (or its page's console), oldest first; `running`: whether the preview runs now (a stopped one's log stays until the next start).",
    required: ['lines', 'running'],
    properties: { lines: { type: 'array', items: string }, running: { type: 'boolean' } },
  },
} satisfies Record<string, JsonSchema>;
