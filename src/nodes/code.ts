import { check, defineNode, type NodeContext, type Problem } from './define.js';
import { service } from './resources/common.js';
import { NUL_IN_CODE } from '../sandbox/limits.js';
import type { ExecutionVariables } from '../flow/types.js';

/**
 * `{"code": "<JS function body>"}`, run in the QuickJS sandbox (`weir.sandbox`) with `$input`
 * (the trigger input), `$node`, `$env`, `$now` and `$crypto`. The return value (JSON) is the node's data; a
 * throw fails the node, and a numeric `status` on the thrown error becomes the HTTP answer's status.
 * `$execution` holds `id` and, when the code mentions them, `resumeUrl` and `approvalUrl`. The node's `timeoutMs` lowers the CPU limit for this node. `console.log`, `.info`, `.warn` and `.error`
 * lines go to the node's `logs` in the execution record.
 * @example
 * { "id": "code-1", "type": "code", "config": { "code": "return { total: $input.items.length }" } }
 */
export const codeNode = defineNode<{ code: string; timeoutMs?: number }>({
  type: 'code',
  docs: {
    summary: 'Runs a JavaScript function body in an isolated sandbox with $input, $node, $env, $now and $crypto',
    output: 'What the code returns (JSON); a throw fails the node',
    example: { code: 'return { total: $input.items.length }' },
  },
  pure: true,
  rawKeys: ['code'],
  // A spinning run must fail as a broken CPU limit (SANDBOX_LIMIT), not race a wall-clock timer.
  ownsTimeout: true,
  config: {
    type: 'object',
    properties: {
      code: { type: 'string', description: 'A JavaScript function body, run isolated; what it returns is the data' },
      timeoutMs: { type: 'number', description: 'Time limit of one attempt in milliseconds; also lowers the CPU limit of the code' },
    },
    required: ['code'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    if (check.required(config, 'code', problems) && config.code.includes('\0')) problems.push({ path: 'code', message: NUL_IN_CODE });
    return problems;
  },
  run(ctx) {
    return service(ctx, 'sandbox').run(ctx.config.code, {
      globals: codeGlobals(ctx.config.code, ctx),
      cpuMs: ctx.config.timeoutMs,
      onCancel: (stop) => ctx.onCancel(stop),
      log: (message, level) => ctx.log(message, undefined, level),
      // Calls dropped inside the sandbox are past the node's log budget too: passed on, they are only counted.
      dropped: (count) => {
        for (let i = 0; i < count; i++) ctx.log('', undefined, 'log');
      },
    });
  },
});

/**
 * The globals a code text names, each copied into the sandbox as JSON and parsed there: a name the text does
 * not contain (`$node` in most code) is left out, which spares copying every earlier node's data per run.
 */
function codeGlobals(code: string, ctx: Pick<NodeContext, 'execution' | 'env'>): Record<string, unknown> {
  return {
    $input: code.includes('$input') ? ctx.execution.input : undefined,
    $node: code.includes('$node') ? ctx.execution.nodes : undefined,
    $env: code.includes('$env') ? ctx.env : undefined,
    $now: new Date().toISOString(),
    $execution: executionGlobal(ctx.execution.variables, code),
  };
}

/**
 * `$execution` of a Code node, for code that names it (globals cost a copy into the sandbox); the resume URL
 * only when the code names it too, since making one stores a token.
 */
function executionGlobal(variables: ExecutionVariables, code: string): ExecutionVariables | undefined {
  if (!code.includes('$execution')) return undefined;
  return {
    id: variables.id,
    ...(code.includes('resumeUrl') ? { resumeUrl: variables.resumeUrl } : {}),
    ...(code.includes('approvalUrl') ? { approvalUrl: variables.approvalUrl } : {}),
  };
}
