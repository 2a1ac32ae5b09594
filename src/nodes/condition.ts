import { FORBIDDEN_KEYS } from '../expr/values.js';
import { defineNode, type Problem } from './define.js';

/** Operators of json-logic-js that are refused: `method` calls functions on values (an escape hatch). */
const REFUSED_OPS = new Set(['method']);

/** Problems of a json-logic rule: refused operators and `var` paths through prototypes. */
function ruleProblems(rule: unknown, path: string, problems: Problem[]): void {
  if (Array.isArray(rule)) return rule.forEach((r, i) => ruleProblems(r, `${path}[${i}]`, problems));
  if (!rule || typeof rule !== 'object') return;
  for (const [op, args] of Object.entries(rule)) {
    if (REFUSED_OPS.has(op)) problems.push({ path: `${path}.${op}`, message: `the json-logic operator "${op}" is not allowed` });
    if (op === 'var') {
      const name = Array.isArray(args) ? args[0] : args;
      if (typeof name === 'string' && name.split('.').some((k) => FORBIDDEN_KEYS.has(k))) {
        problems.push({ path: `${path}.var`, message: `"${name}" is not accessible` });
      }
    }
    ruleProblems(args, `${path}.${op}`, problems);
  }
}

// json-logic-js is loaded on first use (startup stays lean); once loaded, a condition runs synchronously.
let jsonLogic: typeof import('json-logic-js') | undefined;

/**
 * `{"rules": <json-logic>}` over `{input, node, env}` (`input` = the trigger input, `node` = the
 * output records so far). Edges leave it by the handle `"true"` or `"false"`; data = `{result}`.
 */
export const conditionNode = defineNode<{ rules: unknown }>({
  type: 'condition',
  docs: {
    summary: 'Decides between two branches by a json-logic rule over {input, node, env}: edges leave by "true" or "false"',
    output: '`{ result }`, the truth of the rule',
    example: { rules: { '>': [{ var: 'input.amount' }, 100] } },
  },
  handles: ['true', 'false'],
  config: {
    type: 'object',
    properties: { rules: { description: 'A json-logic rule over {input, node, env}; its truth picks the "true" or "false" edges' } },
    required: ['rules'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    if (config.rules === undefined) problems.push({ path: 'rules', message: '"rules" is required (a json-logic rule)' });
    ruleProblems(config.rules, 'rules', problems);
    return problems;
  },
  run(ctx) {
    const decide = (logic: typeof import('json-logic-js')) => {
      const result = logic.truthy(logic.apply(ctx.config.rules as never, { input: ctx.execution.input, node: ctx.execution.nodes, env: ctx.env }));
      return { handle: result ? 'true' : 'false', data: { result } };
    };
    if (jsonLogic) return decide(jsonLogic);
    return import('json-logic-js').then((m) => decide((jsonLogic = m.default)));
  },
});
