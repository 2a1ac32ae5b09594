// docs/agents.md's support bot, end to end as a user follows the page: its files written as shown, its
// commands run by the CLI, `weir serve`, the two questions sent to the webhook; the model is a local server
// speaking the chat-completions format, the payments service a server of the test's own.
import { writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cli } from '../_utils.js';
import { send, startServe, tmpDir, until } from '../host/_helpers.js';
import { recordingServer } from '../agent/_agent.js';
import { modelServer } from '../agent/_model-server.js';

const doc = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8');
/** The ```<lang> file=<name> blocks of the page, by name. */
const files = Object.fromEntries([...doc.matchAll(/```\w+ file=([\w.-]+)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));
/** The commands of the page's set-up block, each as its words (double quotes group words). */
const setup = /Set it up and serve it:\n\n```sh\n([\s\S]*?)```/.exec(doc)![1].trim().split('\n').map((line) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]));
const config = JSON.parse(/```json\n(\{ "providers"[^\n]*)\n```/.exec(doc)![1]);

const QUESTION = 'How long do refunds take?';
const REFUND = 'Please refund order 42, it arrived broken.';

test('the page shows the files, the set-up and the two questions this test runs', () => {
  assert.equal(Object.keys(files).sort(), ['refund-order.json', 'returns.md', 'support-bot.json']);
  assert.equal(setup.map((words) => words.slice(0, 3).join(' ')), [
    'weir secrets set',
    'weir knowledge upload',
    'weir agent create',
    'weir workflows create',
    'weir workflows save',
    'weir workflows publish',
    'weir workflows create',
    'weir workflows save',
    'weir workflows publish',
    'weir serve',
  ]);
  for (const message of [QUESTION, REFUND]) assert.ok(doc.includes(`{"message": "${message}"}`), message);
});

test('the support bot answers from the knowledge base, and refunds an order once a person approved it', async () => {
  const payments = await recordingServer();
  // The model: looks the policy up before answering it; calls refund-order for a refund and answers with
  // what the tool gave back.
  const model = await modelServer('openai', ({ body }) => {
    const asked: string = body.messages.find((m: any) => m.role === 'user').content;
    const results = body.messages.filter((m: any) => m.role === 'tool');
    const usage = { input: 120, output: 20 };
    if (asked === QUESTION) {
      if (!results.length) return { toolCalls: [{ name: 'knowledge_search', input: { query: 'refunds' } }], usage };
      const found = /within 5\s+business days/.test(results[0].content);
      return { text: found ? 'Refunds go back to your original payment method within 5 business days of approval.' : 'I do not know.', usage };
    }
    if (!results.length) return { toolCalls: [{ name: 'refund-order', input: { orderId: '42', reason: 'arrived broken' } }], usage };
    const refunded = JSON.parse(results[0].content).refunded === '42';
    return { text: refunded ? 'Order 42 is refunded; the money is back within 5 business days.' : `No refund: ${results[0].content}`, usage };
  });
  const home = tmpDir('weir-docs-agents-');
  writeFileSync(join(home, 'weir.config.json'), JSON.stringify({ providers: { llm: { ...config.providers.llm, baseUrl: model.url } } }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(home, name), name === 'refund-order.json' ? text.replace('https://payments.example.com', payments.base) : text);

  let host: Awaited<ReturnType<typeof startServe>> | undefined;
  try {
    for (const words of setup) {
      if (words[1] === 'serve') continue;
      const args = words.slice(1).map((w) => (w === 'sk-...' ? 'sk-test' : w));
      const run = await cli(args, { home });
      assert.is(run.code, 0, `${words.join(' ')}: ${run.stderr}`);
    }
    host = await startServe(home, ['--quiet']);
    const url = (await cli(['workflows', 'webhook-url', 'support-bot'], { home })).stdout.trim().split('\n')[0];
    const ask = (message: string) => send(url, { body: JSON.stringify({ message }), headers: { 'content-type': 'application/json' } });

    const answered = await ask(QUESTION);
    assert.is(answered.status, 200, answered.text);
    assert.equal(answered.json, { answer: 'Refunds go back to your original payment method within 5 business days of approval.' });

    const waiting = await ask(REFUND);
    assert.is(waiting.status, 202, waiting.text);
    assert.is(waiting.json.status, 'waiting');
    const id: string = waiting.json.executionId;
    const shown = await cli(['workflows', 'execution', id], { home });
    assert.match(shown.stdout, 'waiting for approval of refund-order');
    assert.is(payments.calls.length, 0, 'nothing refunded before the approval');

    const approved = await cli(['workflows', 'approve', id], { home });
    assert.is(approved.code, 0, approved.stderr);
    const done = await until(async () => {
      const r = JSON.parse((await cli(['workflows', 'execution', id, '--json'], { home })).stdout);
      return r.status !== 'waiting' && r.status !== 'running' && r;
    }, 30_000, 'the approved execution to end');
    assert.is(done.status, 'success', JSON.stringify(done.error));
    assert.equal(done.result, { answer: 'Order 42 is refunded; the money is back within 5 business days.' });
    assert.equal(payments.calls.map((c) => [c.path, JSON.parse(c.body)]), [['/refunds', { order: '42', reason: 'arrived broken' }]]);
    assert.equal(done.usage.promptTokens, 240, 'two model calls of this execution');
  } finally {
    await host?.stop();
    await model.close();
    await payments.close();
  }
});

test.run();
