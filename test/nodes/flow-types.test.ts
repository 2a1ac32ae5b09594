// A flow written in TypeScript is checked by the compiler: FlowConfig's nodes are a union by `type`, each
// with the config type its node definition declares.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tmpDir } from '../_utils.js';

// The modules the public entry takes these names from (the entry itself compiles the whole package).
const from = (path: string) => JSON.stringify(join(ROOT, 'src', path));
const HEADER = [
  `import { defineNode, type NodeConfigs } from ${from('nodes/index.js')};`,
  `import type { FlowConfig } from ${from('nodes/flow-config.js')};`,
  `import type { WorkflowConfig } from ${from('resources/workflows/types.js')};`,
  '',
].join('\n');

const VALID = `${HEADER}
export const flow: FlowConfig = {
  nodes: [
    { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
    { id: 'set-1', type: 'set', config: { values: { greeting: 'hi {{ $input.name }}' }, retry: { max: 2 } } },
    { id: 'delay-1', type: 'delay', config: { ms: '{{ $input.ms }}' }, position: { x: 10, y: 20 } },
    { id: 'condition-1', type: 'condition', config: { rules: { '>': [{ var: 'input.amount' }, 100] } }, label: 'Big?' },
    { id: 'greet-1', type: 'greet', config: { name: 'Ada' } },
  ],
  edges: [{ source: 'manual_trigger-1', target: 'set-1' }],
} satisfies FlowConfig<NodeConfigs & { greet: { name: string } }> as never;
export const saved: WorkflowConfig = flow;
export const who = defineNode({ type: 'who', run: (ctx) => \`\${ctx.execution.workflowName} \${ctx.execution.depth + 1}\` });
`;

const WRONG = `${HEADER}
export const flow: FlowConfig = {
  nodes: [
    { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
    { id: 'set-1', type: 'set', config: { value: {} } },
  ],
  edges: [],
};
export const late: FlowConfig = { nodes: [{ id: 'delay-1', type: 'delay', config: { ms: 'soon' } }], edges: [] };
export const typo = defineNode({ type: 'typo', run: (ctx) => ctx.execution.workflowNmae });
`;

test('a flow typed FlowConfig compiles; a wrong config key or value type for a known node type does not, nor a misspelt ctx.execution property', () => {
  const dir = tmpDir();
  writeFileSync(join(dir, 'valid.ts'), VALID);
  writeFileSync(join(dir, 'wrong.ts'), WRONG);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), compilerOptions: { typeRoots: [join(ROOT, 'node_modules/@types')] }, include: [], files: ['valid.ts', 'wrong.ts'] }));
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  const errors = r.stdout.split('\n').filter((line) => /error TS/.test(line));
  assert.equal(errors.filter((e) => !e.startsWith('wrong.ts')), [], r.stdout);
  assert.equal(errors.map((e) => /^wrong\.ts\((\d+),/.exec(e)?.[1]), ['8', '12', '13'], r.stdout);
  assert.match(r.stdout, "'value' does not exist in type 'WrittenConfig<{ values: Record<string, unknown>; }>'");
  assert.match(r.stdout, `Type '"soon"' is not assignable to type 'number | `);
  // ctx.execution is typed, not `any`: a misspelt property is an error.
  assert.match(r.stdout, "Property 'workflowNmae' does not exist on type 'ExecutionFacade'");
});

test.run();
