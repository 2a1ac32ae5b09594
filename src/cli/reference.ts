import { GLOBAL_FLAGS, argWords, flagWords } from './spec.js';
import { isGroup, type CommandSpec, type GroupSpec } from './types.js';

const cell = (text: string) => text.replace(/\|/g, '\\|');

const names = (entry: CommandSpec | GroupSpec) => [entry.name, ...(entry.aliases ?? [])].map((n) => `\`${n}\``).join(' / ');

function commandRows(command: CommandSpec): string[] {
  const flags = Object.entries(command.flags ?? {}).map(([n, f]) => `\`${flagWords(n, f)}\` ${f.summary}`);
  const usage = argWords(command);
  return [`| ${names(command)} | ${usage ? `\`${cell(usage)}\`` : ''} | ${cell(command.summary)}${flags.length ? `<br>${cell(flags.join('<br>'))}` : ''} |`];
}

function groupSection(path: string[], group: GroupSpec): string[] {
  const commands = group.commands.filter((e): e is CommandSpec => !isGroup(e));
  const groups = group.commands.filter(isGroup);
  const out: string[] = [];
  if (commands.length) {
    const aliases = group.aliases?.length ? ` (aliases: ${group.aliases.join(', ')})` : '';
    out.push(`## \`${path.join(' ')}\`${aliases}`, '', group.summary, '', '| Command | Arguments | Effect and options |', '|---|---|---|');
    for (const command of commands) out.push(...commandRows(command));
    out.push('');
  }
  for (const sub of groups) out.push(...groupSection([...path, sub.name], sub));
  return out;
}

/**
 * The CLI reference (docs/cli.md) rendered from the command table, so the page cannot drift from what the
 * binary accepts: a test compares the file with this function's output, and `npm run docs:cli` rewrites it.
 * @example
 * writeFileSync('docs/cli.md', cliReference(root))
 */
export function cliReference(root: GroupSpec): string {
  const globals = Object.entries(GLOBAL_FLAGS).map(([n, f]) => `- \`${flagWords(n, f)}\`: ${f.summary}`);
  const top = root.commands.filter((e): e is CommandSpec => !isGroup(e));
  const lines = [
    '# CLI reference',
    '',
    '<!-- Generated from the command table in src/cli/commands/ by `npm run docs:cli`; a test fails when it drifts. -->',
    '',
    '`weir <group> <command> [args] [options]`. A group without a command prints its usage; `--help` anywhere prints usage; `--version` prints the version.',
    'Exit codes: 0 success, 1 the operation failed, 2 usage error. With `--json`, stdout is one JSON document and errors are `{"error":{"code","message"}}` on stderr.',
    '',
    'Global options (anywhere on the line):',
    ...globals,
    '',
  ];
  for (const group of root.commands.filter(isGroup)) lines.push(...groupSection(['weir', group.name], group));
  if (top.length) {
    lines.push('## Top-level commands', '', '| Command | Arguments | Effect and options |', '|---|---|---|');
    for (const command of top) lines.push(...commandRows(command));
    lines.push('');
  }
  return lines.join('\n');
}
