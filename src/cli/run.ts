import arg from 'arg';
import { existsSync } from 'node:fs';
import { loadConfig, resolveHome, type WeirConfig } from '../config.js';
import { WeirError } from '../errors.js';
import type { Weir } from '../weir.js';
import { root } from './commands/index.js';
import { printError, printResult } from './output.js';
import { didYouMean } from '../util/nearest.js';
import { GLOBAL_FLAGS, VALUE_FLAGS, argSpec, commandUsage, groupUsage, resolve } from './spec.js';
import type { CliIO, CommandContext, FlagSpec } from './types.js';

const wantsJson = (argv: string[]) => argv.includes('--json');

/** The usage error of an option a command does not take, with the command's flags nearest to it, else the global ones. */
function unknownOption(option: string, flags: Record<string, FlagSpec>, hints?: string[]): WeirError {
  const near = (names: string[]) => didYouMean(option.slice(2), names, (name) => `--${name}`);
  const guess = option.startsWith('--') ? near(Object.keys(flags)) || near(Object.keys(GLOBAL_FLAGS)) : '';
  return new WeirError('USAGE', `unknown option "${option}"${guess}`, { hints });
}

/**
 * Runs one CLI invocation and returns its exit code (0 success, 1 failed operation, 2 usage error).
 * @example
 * const code = await runCli(['workflows', 'list', '--json'], { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env })
 */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  let json = wantsJson(argv);
  let weir: Weir | undefined;
  try {
    const { path, command, rest } = resolve(root, argv);
    if (!command) {
      const globals = new Set(['--help', '-h', '--json', ...VALUE_FLAGS]);
      const unknown = rest.find((t, i) => t.startsWith('-') && !globals.has(t.split('=')[0]) && !VALUE_FLAGS.has(rest[i - 1]));
      if (unknown) throw unknownOption(unknown.split('=')[0], {}, [`run \`${['weir', ...path.slice(1).map((g) => g.name)].join(' ')} --help\``]);
      io.stdout.write(groupUsage(path));
      return 0;
    }
    let parsed: arg.Result<any>;
    try {
      parsed = arg(argSpec(command.flags ?? {}) as arg.Spec, { argv: rest, permissive: false });
    } catch (err) {
      const hints = [`run \`${['weir', ...path.slice(1).map((g) => g.name), command.name].join(' ')} --help\``];
      if ((err as { code?: string }).code === 'ARG_UNKNOWN_OPTION') throw unknownOption((err as Error).message.replace(/^unknown or unexpected option: /, ''), command.flags ?? {}, hints);
      throw new WeirError('USAGE', (err as Error).message, { hints });
    }
    json = !!parsed['--json'];
    if (parsed['--help']) {
      io.stdout.write(commandUsage(path, command));
      return 0;
    }
    const positionals: string[] = parsed._;
    const specs = command.args ?? [];
    const usageHint = [`usage: ${['weir', ...path.slice(1).map((g) => g.name), command.name].join(' ')} ${specs.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ')}`.trim()];
    const missing = specs.filter((a, i) => a.required && positionals[i] === undefined);
    if (missing.length) throw new WeirError('USAGE', `missing argument${missing.length > 1 ? 's' : ''}: ${missing.map((a) => `<${a.name}>`).join(' ')}`, { hints: usageHint });
    const variadic = specs.at(-1)?.variadic;
    if (!variadic && positionals.length > specs.length) {
      throw new WeirError('USAGE', `unexpected argument "${positionals[specs.length]}"`, { hints: usageHint });
    }
    const args: Record<string, string | undefined> = {};
    specs.forEach((a, i) => (args[a.name] = positionals[i]));
    const flags: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(parsed)) if (key.startsWith('--')) flags[key.slice(2)] = value;

    const given = { url: parsed['--remote'] as string | undefined, tokenFile: parsed['--token-file'] as string | undefined };
    const remote = given.url === undefined && given.tokenFile === undefined ? null : await (await import('./remote/commands.js')).remoteCommand(path, command, given, io);
    const home = resolveHome(parsed['--home'], io.env, io.cwd);
    let fresh = !existsSync(home);
    let config: WeirConfig | undefined;
    const ctx: CommandContext = {
      args,
      rest: variadic ? positionals.slice(specs.length - 1) : [],
      flags,
      json,
      home,
      io,
      config: () => (config ??= loadConfig(home)),
      noteNewHome() {
        // Said once, and only by a command that made the home: a typo'd or misplaced directory shows at once.
        if (!fresh || !existsSync(home)) return;
        fresh = false;
        io.stderr.write(`weir: created a new home at ${home}\n`);
      },
      async weir() {
        if (!weir) {
          const { createWeir } = await import('../weir.js');
          weir = await createWeir({ home, config: ctx.config(), env: io.env });
        }
        return weir;
      },
    };
    const result = await (remote ? remote(ctx) : command.run(ctx));
    ctx.noteNewHome();
    printResult(result, json, io);
    return result?.exitCode ?? 0;
  } catch (err) {
    return printError(err, json, io);
  } finally {
    await weir?.close().catch(() => {});
  }
}
