import { defineNode, type Problem } from './define.js';

/** One case of a switch: an expression, and the handle its edges leave by when the expression is truthy. */
export interface SwitchCase {
  when: unknown;
  handle: string;
}

export interface SwitchConfig {
  cases: SwitchCase[];
  /** The handle taken when no case matches; without one, nothing follows then. */
  default?: string;
  /** `first` (default): the first matching case; `all`: every matching case (a fan-out). */
  mode?: 'first' | 'all';
}

/** The handles a switch's edges may carry: its cases' handles, then the default. Must not throw (see `handles`). */
function switchHandles(config: Partial<SwitchConfig>): string[] {
  const out: string[] = [];
  for (const c of Array.isArray(config.cases) ? config.cases : []) {
    const handle = (c as Partial<SwitchCase> | null)?.handle;
    if (typeof handle === 'string' && handle && !out.includes(handle)) out.push(handle);
  }
  if (typeof config.default === 'string' && config.default && !out.includes(config.default)) out.push(config.default);
  return out;
}

// A `when` is one expression that gives a value; text around it ("{{ a }} ") would make it a string, always truthy.
const ONE_EXPRESSION = /^\{\{[\s\S]*\}\}$/;
const isOneExpression = (v: string) => ONE_EXPRESSION.test(v) && v.indexOf('{{', 2) < 0;

/** A handle is a name edges carry: a non-empty string, fixed when the flow is saved (no `{{ }}`). */
function handleProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return 'must be a non-empty string';
  if (value.includes('{{')) return 'is the name edges leave by, fixed at save: it cannot hold a {{ }} expression';
  return null;
}

function switchProblems(config: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  const { cases, mode } = config;
  if (!Array.isArray(cases) || cases.length === 0) {
    problems.push({ path: 'cases', message: '"cases" must be a non-empty array of {"when": "{{ <expression> }}", "handle": "<name>"}' });
  } else {
    const seen = new Map<string, number>();
    cases.forEach((c: unknown, i) => {
      const at = `cases[${i}]`;
      if (!c || typeof c !== 'object' || Array.isArray(c)) return problems.push({ path: at, message: `${at} must be an object {"when", "handle"}` });
      const { when, handle } = c as Record<string, unknown>;
      if (when === undefined) problems.push({ path: `${at}.when`, message: `${at}.when is required: a {{ }} expression, e.g. "{{ $input.type == 'order' }}"` });
      else if (typeof when === 'string' ? !isOneExpression(when) : typeof when !== 'boolean') {
        problems.push({ path: `${at}.when`, message: `${at}.when must be one {{ }} expression (nothing around it) or true/false, e.g. "{{ $input.type == 'order' }}", got ${JSON.stringify(when)}` });
      }
      if (handle === undefined) return problems.push({ path: `${at}.handle`, message: `${at}.handle is required: the name its edges leave by` });
      const bad = handleProblem(handle);
      if (bad) return problems.push({ path: `${at}.handle`, message: `${at}.handle ${bad}` });
      const first = seen.get(handle as string);
      if (first !== undefined) problems.push({ path: `${at}.handle`, message: `${at}.handle "${handle}" is also the handle of cases[${first}]: each case needs a handle of its own` });
      else seen.set(handle as string, i);
    });
    if (config.default !== undefined) {
      const bad = handleProblem(config.default);
      if (bad) problems.push({ path: 'default', message: `"default" ${bad}` });
      else if (seen.has(config.default as string)) problems.push({ path: 'default', message: `"default" "${config.default}" is also the handle of cases[${seen.get(config.default as string)}]: the default needs a handle of its own` });
    }
  }
  if (mode !== undefined && mode !== 'first' && mode !== 'all') problems.push({ path: 'mode', message: `"mode" must be "first" or "all", got ${JSON.stringify(mode)}` });
  return problems;
}

/**
 * `{"cases": [{"when": "{{ expr }}", "handle": "<name>"}], "default": "<name>", "mode": "first" | "all"}`:
 * edges leave by the handle of the first case whose `when` is truthy (mode `all`: of every such case), else by
 * `default`. Data = `{handles, matched}`: the handles taken and the indexes of the cases that matched.
 */
export const switchNode = defineNode<SwitchConfig>({
  type: 'switch',
  category: 'flow control',
  docs: {
    summary: 'Routes by cases: edges leave by the handle of the first case whose `when` is truthy (`mode: "all"`: of every such case, a fan-out), else by `default`',
    output: '`{ handles, matched }`: the handles taken (the default when no case matched) and the indexes of the cases that matched, in case order',
    example: {
      cases: [
        { when: "{{ $input.type == 'order' }}", handle: 'order' },
        { when: "{{ $input.type == 'refund' }}", handle: 'refund' },
      ],
      default: 'other',
    },
  },
  handles: switchHandles,
  config: {
    type: 'object',
    properties: {
      cases: {
        type: 'array',
        description: 'The cases in order: each `when` (one {{ }} expression, resolved per run) and the `handle` its edges leave by',
        items: {
          type: 'object',
          properties: {
            when: { description: 'One {{ }} expression (or true/false); the case matches when its value is truthy' },
            handle: { type: 'string', description: 'The name of the outgoing edges (`sourceHandle`) this case takes' },
          },
          required: ['when', 'handle'],
          additionalProperties: false,
        },
      },
      default: { type: 'string', description: 'The handle taken when no case matches; without one, nothing follows then' },
      mode: { enum: ['first', 'all'], description: '"first" (default): only the first matching case is taken; "all": every matching case is (a fan-out)' },
    },
    required: ['cases'],
    additionalProperties: false,
  },
  validate: (config) => switchProblems(config as unknown as Record<string, unknown>),
  run(ctx) {
    const { cases, mode } = ctx.config;
    const matched: number[] = [];
    for (let i = 0; i < cases.length; i++) {
      if (!cases[i].when) continue;
      matched.push(i);
      if (mode !== 'all') break;
    }
    const handles = matched.map((i) => cases[i].handle);
    if (!handles.length && ctx.config.default !== undefined) handles.push(ctx.config.default);
    // Mode all always names a list, so a record tells a fan-out of one from the first mode.
    return { handle: mode === 'all' ? handles : handles[0], data: { handles, matched } };
  },
});
