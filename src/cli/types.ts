import type { WeirConfig } from '../config.js';
import type { Weir } from '../weir.js';

/** A flag of a command: `--name` (and a one-letter alias such as `-n`). */
export interface FlagSpec {
  type: 'string' | 'number' | 'boolean' | 'strings';
  alias?: string;
  summary: string;
  /** Shown in usage as `--name <placeholder>`. */
  placeholder?: string;
}

/** A positional argument; `variadic` takes the rest of the line. */
export interface ArgSpec {
  name: string;
  required?: boolean;
  variadic?: boolean;
}

/** Where a command writes and what it sees; tests pass their own. */
export interface CliIO {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  stdin?: NodeJS.ReadableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** What a command's run function receives. */
export interface CommandContext {
  /** Positional arguments by name (as declared in `args`). */
  args: Record<string, string | undefined>;
  /** The values of a variadic argument. */
  rest: string[];
  flags: Record<string, any>;
  json: boolean;
  home: string;
  io: CliIO;
  /** The weir instance of the home, created on first use. */
  weir(): Promise<Weir>;
  /** `weir.config.json` of the home. */
  config(): WeirConfig;
  /**
   * Says on stderr that this command created the home, if it did (once). Called when a command ends; a
   * long-running command calls it once it is set up.
   */
  noteNewHome(): void;
}

/** What a command returns: `data` for `--json`, `text` (or a rendering of `data`) for people. */
export interface CommandResult {
  data?: unknown;
  text?: string;
  /** Column order when `data` is rendered as a table. */
  columns?: string[];
  /** A non-zero exit with a result still printed (e.g. `workflows run` of a failing flow). */
  exitCode?: number;
}

/** One command, as data: usage, argument checks and dispatch derive from it. */
export interface CommandSpec {
  name: string;
  aliases?: string[];
  summary: string;
  args?: ArgSpec[];
  flags?: Record<string, FlagSpec>;
  run(ctx: CommandContext): Promise<CommandResult | void>;
}

/** A command group (`workflows`, `data tables`); groups nest. */
export interface GroupSpec {
  name: string;
  aliases?: string[];
  summary: string;
  commands: Array<CommandSpec | GroupSpec>;
}

export const isGroup = (entry: CommandSpec | GroupSpec): entry is GroupSpec => 'commands' in entry;
