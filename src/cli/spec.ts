import { WeirError } from '../errors.js';
import { didYouMean, editDistance } from '../util/nearest.js';
import { isGroup, type CommandSpec, type FlagSpec, type GroupSpec } from './types.js';

/** Flags every command takes. */
export const GLOBAL_FLAGS: Record<string, FlagSpec> = {
  home: { type: 'string', summary: 'home directory (default: $WEIR_HOME, else the nearest .weir here or in a parent directory, else ./.weir)', placeholder: 'dir' },
  json: { type: 'boolean', summary: 'print one JSON document on stdout' },
  help: { type: 'boolean', alias: 'h', summary: 'show usage' },
  remote: { type: 'string', summary: 'act on a running host through its management API (workflows list, get, status, publish, run, executions, execution, cancel, retry); token from $WEIR_TOKEN', placeholder: 'url' },
  'token-file': { type: 'string', summary: 'with --remote: read the host access token from this file', placeholder: 'file' },
};

/** Global flags that take a value (the next word is theirs, not a command). */
export const VALUE_FLAGS = new Set(['--home', '--remote', '--token-file']);

/** The command path found in argv: the group chain, the command (if reached) and argv without the path. */
export interface Resolved {
  path: GroupSpec[];
  command?: CommandSpec;
  rest: string[];
}

const matches = (entry: CommandSpec | GroupSpec, word: string) => entry.name === word || entry.aliases?.includes(word);

/** Per command of a group, the one of its names (name or alias) nearest to a mistyped word: one suggestion per command. */
const nearestNames = (group: GroupSpec, word: string): string[] =>
  group.commands.map((e) => [e.name, ...(e.aliases ?? [])].reduce((a, b) => (editDistance(word, b) < editDistance(word, a) ? b : a)));

/** Walks argv's words down the command tree; an unknown word is a usage error naming it. */
export function resolve(root: GroupSpec, argv: string[]): Resolved {
  const path: GroupSpec[] = [root];
  const rest: string[] = [];
  let command: CommandSpec | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (command || token === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (token.startsWith('-') && token.length > 1) {
      rest.push(token);
      if (VALUE_FLAGS.has(token) && i + 1 < argv.length) rest.push(argv[++i]);
      continue;
    }
    const group = path[path.length - 1];
    const entry = group.commands.find((e) => matches(e, token));
    if (!entry) {
      const where = path.length > 1 ? `${path.slice(1).map((g) => g.name).join(' ')} ` : '';
      throw new WeirError('USAGE', `unknown command "${where}${token}"${didYouMean(token, nearestNames(group, token))}`, { hints: [`run \`weir ${where}--help\` to list commands`] });
    }
    if (isGroup(entry)) path.push(entry);
    else command = entry;
  }
  return { path, command, rest };
}

/** The `arg` spec of a command: its own flags plus the global ones, with one-letter aliases. */
export function argSpec(flags: Record<string, FlagSpec>): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries({ ...GLOBAL_FLAGS, ...flags })) {
    spec[`--${name}`] = flag.type === 'number' ? Number : flag.type === 'boolean' ? Boolean : flag.type === 'strings' ? [String] : String;
    if (flag.alias) spec[`-${flag.alias}`] = `--${name}`;
  }
  return spec;
}

const pad = (rows: string[][]): string => {
  const width = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`).join('\n');
};

/** A command's positional arguments as usage words: `<required> [optional] [rest]...`. */
export const argWords = (c: CommandSpec) =>
  (c.args ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`) + (a.variadic ? '...' : '')).join(' ');

/** A flag as usage words: `-n, --name <value>`. */
export const flagWords = (name: string, f: FlagSpec) =>
  `${f.alias ? `-${f.alias}, ` : ''}--${name}${f.type === 'boolean' ? '' : ` <${f.placeholder ?? (f.type === 'number' ? 'n' : 'value')}>`}`;

/** Usage of a group: its commands and subgroups with their arguments. */
export function groupUsage(path: GroupSpec[]): string {
  const group = path[path.length - 1];
  const prefix = ['weir', ...path.slice(1).map((g) => g.name)].join(' ');
  const aliases = group.aliases?.length ? ` (aliases: ${group.aliases.join(', ')})` : '';
  const rows = group.commands.map((e) =>
    isGroup(e) ? [`${e.name} <command>`, e.summary] : [`${[e.name, ...(e.aliases ?? [])].join('|')} ${argWords(e)}`.trim(), e.summary],
  );
  const globals = Object.entries(GLOBAL_FLAGS).map(([n, f]) => [flagWords(n, f), f.summary]);
  return `${group.summary}${aliases}\n\nUsage: ${prefix} <command> [options]\n\nCommands:\n${pad(rows)}\n\nGlobal options:\n${pad(globals)}\n`;
}

/** Usage of one command: arguments and flags. */
export function commandUsage(path: GroupSpec[], command: CommandSpec): string {
  const prefix = ['weir', ...path.slice(1).map((g) => g.name), command.name].join(' ');
  const flags = Object.entries(command.flags ?? {}).map(([n, f]) => [flagWords(n, f), f.summary]);
  const globals = Object.entries(GLOBAL_FLAGS).map(([n, f]) => [flagWords(n, f), f.summary]);
  return (
    `${command.summary}\n\nUsage: ${prefix} ${argWords(command)}${flags.length ? ' [options]' : ''}\n` +
    (flags.length ? `\nOptions:\n${pad(flags)}\n` : '') +
    `\nGlobal options:\n${pad(globals)}\n`
  );
}
