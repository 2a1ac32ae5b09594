// A tool flow that authenticates with a secret: the service gets it, while neither the model's messages nor any
// record under the home hold it (the secrets store aside).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { agentRecord, agentWeir, publishAgentFlow, recordingServer } from './_agent.js';

const SECRET = 'tok-5ecr3t-9f8e7d6c';
const FORMS = [SECRET, Buffer.from(SECRET).toString('base64'), Buffer.from(SECRET).toString('hex')];

/** Every file under `dir` holding the secret in one of {@link FORMS}, but the secrets' own. */
function filesHoldingSecret(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'secrets' ? [] : filesHoldingSecret(path);
    return FORMS.some((f) => readFileSync(path).toString('latin1').includes(f)) ? [path] : [];
  });
}

test('a secret a tool flow sends reaches its service, never the model or a record', async () => {
  const service = await recordingServer();
  const sent: string[] = [];
  const { weir, model, home, close } = await agentWeir('openai', ({ body }) =>
    body.messages.some((m: any) => m.role === 'tool') ? { text: 'Order 7 is on its way.' } : { toolCalls: [{ name: 'lookup', input: { orderId: '7' } }] },
  );
  try {
    await weir.secrets.set('API_TOKEN', SECRET);
    const tool = {
      nodes: [
        { id: 'manual_trigger-1', type: 'manual_trigger', config: { inputParams: [{ name: 'orderId', type: 'string', required: true }] } },
        { id: 'http_request-1', type: 'http_request', config: { method: 'POST', url: `${service.base}/orders/{{ $input.orderId }}`, headers: { authorization: 'Bearer {{ $env.API_TOKEN }}' }, body: { token: '{{ $env.API_TOKEN }}' } } },
        { id: 'set-1', type: 'set', config: { values: { status: 'shipped', seen: '{{ $node.http_request-1.data.body.seen }}' } } },
      ],
      edges: [
        { id: 'e1', source: 'manual_trigger-1', target: 'http_request-1' },
        { id: 'e2', source: 'http_request-1', target: 'set-1' },
      ],
    };
    await weir.workflows.create('lookup', 'Looks an order up', { config: tool as any, publish: true });
    await publishAgentFlow(weir, 'helper', { agent: 'assistant', prompt: 'Where is order 7?', tools: ['lookup'] });
    const run = await weir.run('helper', {}, { published: true });
    assert.is(run.status, 'success', JSON.stringify(run.error));
    assert.is(agentRecord(run).data.text, 'Order 7 is on its way.');

    // The service got the secret; the model saw the tool's result, not what the tool sent.
    assert.equal(service.calls.map((c) => [c.path, JSON.parse(c.body)]), [['/orders/7', { token: SECRET }]]);
    for (const request of model.requests) sent.push(JSON.stringify(request.body));
    assert.is(model.requests.length, 2);
    assert.ok(sent.every((body) => !body.includes(SECRET)), 'no model request holds the secret');
    const result = model.requests[1].body.messages.find((m: any) => m.role === 'tool');
    assert.is(JSON.parse(result.content).status, 'shipped', 'the tool result reached the model');
    assert.equal(filesHoldingSecret(home), [], 'no record holds the secret');
  } finally {
    await close();
    await service.close();
  }
});

test.run();
