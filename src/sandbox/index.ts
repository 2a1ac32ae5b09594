import { availableParallelism } from 'node:os';
import { WeirError } from '../errors.js';
import { NODE_LOG_LIMITS } from '../flow/node-logs.js';
import type { ConsoleLevel } from './host.js';
import { DEFAULT_MAX_OUTPUT } from './limits.js';
import { createPool, type SandboxLoad } from './pool.js';

export type { SandboxLoad } from './pool.js';
import { onAbort } from '../util/abort.js';
import { CarriesJson } from '../util/json-text.js';

/** Limits of the Code node sandbox (`weir.config.json` `sandbox`). */
export interface SandboxOptions {
  /** Time one run may take, in ms, including time spent in `$crypto` and `console` (default 1000). */
  cpuMs?: number;
  /** Memory one run may use, in MB (default 32). */
  memoryMb?: number;
  /** The largest return value, in bytes of JSON (default 4 MiB). */
  maxOutputBytes?: number;
  /** How many worker threads run Code nodes at once (default: the number of cores). */
  workers?: number;
}

export interface SandboxRun {
  /** JSON values defined as globals (`$input`, `$node`, ...). */
  globals: Record<string, unknown>;
  /** A lower CPU limit for this run (e.g. the node's `timeoutMs`). */
  cpuMs?: number;
  /** Aborting stops the run (it fails with CANCELLED). */
  signal?: AbortSignal;
  /** In place of `signal`: registers how to stop the run, returning a function that forgets it (`NodeContext.onCancel`). */
  onCancel?(stop: () => void): () => void;
  /**
   * Where `console.log`, `.info`, `.warn` and `.error` inside the sandbox go (`level` is the method's name),
   * passed on when the run ends. Calls past the run's console budget arrive as `dropped` (their number).
   */
  log?(message: string, level: ConsoleLevel): void;
  dropped?(count: number): void;
  /** The console budget of this run (default: what a node run keeps of its log lines). */
  logLimits?: { lines: number; chars: number };
}

/**
 * The isolated JavaScript sandbox of Code nodes (`weir.sandbox`).
 * @example
 * await weir.sandbox.run('return $input.a + 1', { globals: { $input: { a: 1 } } }) // 2
 */
export interface Sandbox {
  /** Runs `code` as the body of a function and resolves to its JSON return value. */
  run(code: string, options: SandboxRun): Promise<unknown>;
  /** Worker threads started, those running a Code node, and runs waiting for one (read by the metrics). */
  load(): SandboxLoad;
  /** Stops the worker threads. */
  close(): Promise<void>;
}

/**
 * Runs user JavaScript off the main thread, in QuickJS compiled to WebAssembly inside a pool of worker
 * threads: a separate heap with no `process`, `require`, file system or network; only JSON values and
 * bounded strings (for `$crypto` and `console`) cross the boundary. A spinning run never delays the host.
 * @example
 * const sandbox = createSandbox({ cpuMs: 500 })
 * await sandbox.run('return $input.a * 2', { globals: { $input: { a: 21 } } }) // 42
 * await sandbox.close()
 */
export function createSandbox({ cpuMs = 1000, memoryMb = 32, maxOutputBytes = DEFAULT_MAX_OUTPUT, workers = availableParallelism() }: SandboxOptions = {}): Sandbox {
  const pool = createPool({ size: Math.max(1, workers), memoryMb, maxOutputBytes });
  return {
    /** Runs `code` as the body of a function and resolves to its JSON return value. */
    async run(code: string, options: SandboxRun): Promise<unknown> {
      // One JSON text crosses to the worker and is parsed once inside the sandbox (undefined members drop out).
      const logLimits = options.logLimits ?? NODE_LOG_LIMITS;
      const { signal } = options;
      const onCancel = options.onCancel ?? (signal ? (stop: () => void) => onAbort(signal, stop) : undefined);
      const reply = await pool.run([code, globalsText(options.globals), Math.min(options.cpuMs ?? cpuMs, cpuMs), logLimits.lines, logLimits.chars], onCancel);
      if (typeof reply !== 'object') return reply === undefined ? undefined : JSON.parse(reply);
      const [json, logs, dropped, error] = reply;
      for (const [level, message] of logs) options.log?.(message, level);
      if (dropped) options.dropped?.(dropped);
      if (error) throw new WeirError(error.code, error.message, { hints: error.hints, status: error.status });
      return json === undefined ? undefined : JSON.parse(json);
    },
    load: () => pool.load(),
    /** Stops the worker threads. */
    close: () => pool.close(),
  };
}

/**
 * The globals as one JSON object text, as `JSON.stringify` writes it; a value that carries its own JSON text
 * (a webhook input, whose request text is already serialized for the journal) is written from that text.
 */
function globalsText(globals: Record<string, unknown>): string {
  let text = '';
  for (const name of Object.keys(globals)) {
    const value = globals[name];
    const json = CarriesJson.wholeTextOf(value) ?? JSON.stringify(value);
    if (json !== undefined) text += `${text ? ',' : '{'}${JSON.stringify(name)}:${json}`;
  }
  return text ? `${text}}` : '{}';
}
