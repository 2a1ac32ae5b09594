import type { GroupSpec } from '../types.js';

const projectId = [{ name: 'project-id' }];

/** `weir project` (alias `proj`): deploys the state to the configured git remote. */
export const project: GroupSpec = {
  name: 'project',
  aliases: ['proj'],
  summary: 'Push the project (the whole state of this home) to a git remote',
  commands: [
    {
      name: 'deploy',
      aliases: ['push'],
      summary: 'commit the state as files and force-push it to weir.config.json project.remote',
      args: projectId,
      async run(ctx) {
        const r = await (await ctx.weir()).projects.deploy(ctx.args['project-id']);
        return {
          data: r,
          text: `${r.committed ? 'committed' : 'no changes; pushed'} ${r.commit.slice(0, 12)} (${r.files} files) to ${r.remote} ${r.branch}`,
        };
      },
    },
    {
      name: 'status',
      summary: 'remote, last push, and whether the state changed since',
      args: projectId,
      async run(ctx) {
        const s = await (await ctx.weir()).projects.status(ctx.args['project-id']);
        const last = s.lastPush ? `${s.lastPush.at} (${s.lastPush.commit.slice(0, 12)}, ${s.lastPush.files} files)` : 'never';
        return {
          data: s,
          text: `project:   ${s.id}\nremote:    ${s.remote ?? '(none: set project.remote in weir.config.json)'}\nbranch:    ${s.branch}\nlast push: ${last}\nchanged:   ${s.changed ? 'yes' : 'no'}`,
        };
      },
    },
  ],
};
