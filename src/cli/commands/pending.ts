import { WeirError } from '../../errors.js';
import type { GroupSpec } from '../types.js';

/** A registered group whose commands land with a later issue: says so plainly, never pretends success. */
export const pendingGroup = (name: string, aliases: string[], summary: string, issue: number): GroupSpec => ({
  name,
  aliases,
  summary,
  commands: [
    {
      name: 'help',
      summary: `(arrives with issue #${issue})`,
      async run() {
        throw new WeirError('UNAVAILABLE', `"weir ${name}" arrives with issue #${issue}; see the README status table`);
      },
    },
  ],
});
