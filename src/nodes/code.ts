import type { Sandbox } from '../sandbox/index.js';
import { check, defineNode, type Problem } from './define.js';

/**
 * CONTRACT 9: `{"code": "<JS function body>"}`, run in the QuickJS sandbox (`weir.sandbox`) with `$input`
 * (the trigger input), `$node`, `$env`, `$now` and `$crypto`. The return value (JSON) is the node's data; a
 * throw fails the node, and a numeric `status` on the thrown error becomes the HTTP answer's status.
 * The node's `timeoutMs` lowers the CPU limit for this node. `console.log`, `.info`, `.warn` and `.error`
 * lines go to the node's `logs` in the execution record.
 */
export const codeNode = defineNode<{ code: string; timeoutMs?: number }>({
  type: 'code',
  rawKeys: ['code'],
  validate(config) {
    const problems: Problem[] = [];
    check.required(config, 'code', problems);
    return problems;
  },
  run(ctx) {
    const sandbox = ctx.services.sandbox as Sandbox;
    return sandbox.run(ctx.config.code, {
      globals: { $input: ctx.execution.input, $node: ctx.execution.nodes, $env: ctx.env, $now: new Date().toISOString() },
      cpuMs: ctx.config.timeoutMs,
      signal: ctx.signal,
      log: (message, level) => ctx.log(message, undefined, level),
    });
  },
});
