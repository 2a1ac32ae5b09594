// The language-model drivers against local servers speaking the documented chat-completions and Messages
// shapes: answers, tool-call round trips, JSON-schema requests, retries honouring Retry-After, and errors
// that say what to fix. Keys come from the home's secrets, as `weir secrets set` stores them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:net';
import { checkConfig, type WeirConfig } from '../../src/config.js';
import { createChatModel } from '../../src/agent/providers/index.js';
import type { ChatModel, ModelRequest } from '../../src/agent/model.js';
import { WeirError } from '../../src/errors.js';
import { retryAfterMs } from '../../src/providers/http.js';
import { makeHome, setSecrets, withWeir } from '../providers/_setup.js';
import { modelServer, type ModelServer, type Reply } from './_model-server.js';

const DIALECTS = ['openai', 'anthropic'] as const;
const KEY = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

const weather = { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

/** A model of a real home whose weir.config.json points `providers.llm` at the server, keys from its secrets. */
async function modelOf(driver: 'openai' | 'anthropic', server: ModelServer, llm: Record<string, unknown> = {}, secrets: Record<string, string> = { [KEY[driver]]: 'sk-test' }): Promise<ChatModel> {
  const home = makeHome({ providers: { llm: { driver, baseUrl: server.url, model: 'test-model', ...llm } } });
  await setSecrets(home, secrets);
  return withWeir(home, async (weir) => createChatModel(weir.config, await weir.secrets.values()));
}

/** Runs `fn` against a fresh server and closes it. */
async function withServer(driver: 'openai' | 'anthropic', reply: (r: { body: any; n: number }) => Reply | Promise<Reply>, fn: (server: ModelServer) => Promise<void>): Promise<void> {
  const server = await modelServer(driver, reply);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

/** The WeirError `promise` rejects with (fails when it resolves). */
async function failure(promise: Promise<unknown>): Promise<WeirError> {
  try {
    await promise;
  } catch (err) {
    assert.instance(err, WeirError, String(err));
    return err as WeirError;
  }
  throw new Error('expected a failure');
}

const ask = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({ system: 'You are terse.', messages: [{ role: 'user', content: text }], tools: [], ...extra });

for (const driver of DIALECTS) {
  test(`${driver}: a text answer with its usage, the key and system prompt where the API wants them`, async () => {
    await withServer(driver, () => ({ text: 'Hello there', usage: { input: 12, output: 3 } }), async (server) => {
      const model = await modelOf(driver, server);
      assert.is(model.driver, driver);
      assert.is(model.model, 'test-model');
      const turn = await model.complete(ask('Hi'));
      assert.equal(turn, { text: 'Hello there', toolCalls: [], usage: { promptTokens: 12, completionTokens: 3, totalTokens: 15 }, model: 'test-model' });
      const [req] = server.requests;
      if (driver === 'openai') {
        assert.is(req.path, '/v1/chat/completions');
        assert.is(req.headers.authorization, 'Bearer sk-test');
        assert.equal(req.body.messages, [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Hi' }]);
        assert.not.ok('tools' in req.body);
      } else {
        assert.is(req.path, '/v1/messages');
        assert.is(req.headers['x-api-key'], 'sk-test');
        assert.is(req.headers['anthropic-version'], '2023-06-01');
        assert.is(req.body.system, 'You are terse.');
        assert.is(req.body.max_tokens, 4096);
        assert.equal(req.body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
      }
      assert.is(req.body.model, 'test-model');
      // A node's own model overrides the configured one.
      await model.complete(ask('Hi', { model: 'other-model' }));
      assert.is(server.requests[1].body.model, 'other-model');
    });
  });

  test(`${driver}: tool calls round trip in the documented shapes`, async () => {
    const reply = ({ n }: { n: number }): Reply =>
      n === 0 ? { toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }, { name: 'get_weather', input: { city: 'Rome' } }], usage: { input: 20, output: 8 } } : { text: 'Cold in Oslo, warm in Rome.' };
    await withServer(driver, reply, async (server) => {
      const model = await modelOf(driver, server);
      const first = await model.complete(ask('Weather?', { tools: [weather] }));
      assert.is(first.text, '');
      assert.equal(first.toolCalls.map((c) => [c.name, c.input]), [['get_weather', { city: 'Oslo' }], ['get_weather', { city: 'Rome' }]]);
      assert.ok(first.toolCalls.every((c) => typeof c.id === 'string' && c.id.length > 0));
      assert.equal(first.usage, { promptTokens: 20, completionTokens: 8, totalTokens: 28 });
      const [a, b] = first.toolCalls;
      const second = await model.complete(
        ask('Weather?', {
          tools: [weather],
          messages: [
            { role: 'user', content: 'Weather?' },
            { role: 'assistant', content: '', toolCalls: first.toolCalls },
            { role: 'tool', toolCallId: a.id, name: a.name, content: '{"c":-3}' },
            { role: 'tool', toolCallId: b.id, name: b.name, content: '{"c":21}' },
          ],
        }),
      );
      assert.is(second.text, 'Cold in Oslo, warm in Rome.');
      assert.equal(second.toolCalls, []);
      const sent = server.requests[1].body;
      if (driver === 'openai') {
        assert.equal(sent.tools, [{ type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: weather.parameters } }]);
        assert.equal(sent.messages.slice(2), [
          { role: 'assistant', content: null, tool_calls: [
            { id: a.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
            { id: b.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ] },
          { role: 'tool', tool_call_id: a.id, content: '{"c":-3}' },
          { role: 'tool', tool_call_id: b.id, content: '{"c":21}' },
        ]);
      } else {
        assert.equal(sent.tools, [{ name: 'get_weather', description: 'The weather in a city', input_schema: weather.parameters }]);
        assert.equal(sent.messages.slice(1), [
          { role: 'assistant', content: [
            { type: 'tool_use', id: a.id, name: 'get_weather', input: { city: 'Oslo' } },
            { type: 'tool_use', id: b.id, name: 'get_weather', input: { city: 'Rome' } },
          ] },
          // Both results in one user turn: roles must alternate.
          { role: 'user', content: [
            { type: 'tool_result', tool_use_id: a.id, content: '{"c":-3}' },
            { type: 'tool_result', tool_use_id: b.id, content: '{"c":21}' },
          ] },
        ]);
      }
    });
  });

  test(`${driver}: 429 with Retry-After is waited out, then the answer comes`, async () => {
    const reply = ({ n }: { n: number }): Reply =>
      n === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached', type: 'rate_limit_error' } } } : { text: 'ok' };
    await withServer(driver, reply, async (server) => {
      const model = await modelOf(driver, server);
      const started = Date.now();
      const turn = await model.complete(ask('Hi'));
      const waited = Date.now() - started;
      assert.is(turn.text, 'ok');
      assert.is(server.requests.length, 2);
      assert.ok(waited >= 950, `waited only ${waited} ms of Retry-After: 1`);
      assert.ok(waited < 15_000, `waited ${waited} ms`);
    });
  });

  test(`${driver}: 500 is retried maxRetries times, then fails saying so`, async () => {
    const body = driver === 'openai' ? { error: { message: 'The server had an error', type: 'server_error' } } : { type: 'error', error: { type: 'api_error', message: 'Internal server error' } };
    await withServer(driver, () => ({ status: 500, headers: { 'retry-after-ms': '20' }, body }), async (server) => {
      const model = await modelOf(driver, server, { maxRetries: 2 });
      const err = await failure(model.complete(ask('Hi')));
      assert.is(server.requests.length, 3);
      assert.is(err.code, 'PROVIDER');
      const path = driver === 'openai' ? '/v1/chat/completions' : '/v1/messages';
      assert.is(err.message, `the model server refused POST ${path} (500) after 3 tries: ${body.error.message}`);
    });
  });

  test(`${driver}: 401 names the secret to set`, async () => {
    const body = driver === 'openai' ? { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } : { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } };
    await withServer(driver, () => ({ status: 401, body }), async (server) => {
      const model = await modelOf(driver, server);
      const err = await failure(model.complete(ask('Hi')));
      assert.is(server.requests.length, 1, 'a refused key is not retried');
      assert.is(err.code, 'UNAUTHORIZED');
      assert.match(err.message, body.error.message);
      assert.equal(err.hints, [`check the secret ${KEY[driver]}: \`weir secrets set ${KEY[driver]} <key>\``]);
    });
  });

  test(`${driver}: 404 of an unknown model names the model and the config key`, async () => {
    const body = driver === 'openai' ? { error: { message: 'model "nope" not found, try pulling it first', type: 'api_error' } } : { type: 'error', error: { type: 'not_found_error', message: 'model: nope' } };
    await withServer(driver, () => ({ status: 404, body }), async (server) => {
      const model = await modelOf(driver, server, { model: 'nope' });
      const err = await failure(model.complete(ask('Hi')));
      assert.is(err.code, 'NOT_FOUND');
      assert.match(err.message, body.error.message);
      assert.match(err.hints[0], 'check the model "nope": providers.llm.model in weir.config.json');
    });
  });

  test(`${driver}: a model that does not answer in timeoutMs is an error naming the key`, async () => {
    await withServer(driver, () => new Promise<Reply>(() => {}), async (server) => {
      const model = await modelOf(driver, server, { timeoutMs: 300, maxRetries: 0 });
      const started = Date.now();
      const err = await failure(model.complete(ask('Hi')));
      assert.ok(Date.now() - started < 10_000);
      assert.is(err.code, 'PROVIDER');
      assert.match(err.message, 'did not answer POST');
      assert.match(err.message, 'within 0.3s');
      assert.match(err.hints[0], 'providers.llm.timeoutMs in weir.config.json');
    });
  });

  test(`${driver}: the caller's signal ends a wait before a retry`, async () => {
    let answered!: () => void;
    const asked = new Promise<void>((r) => (answered = r));
    const reply = (): Reply => {
      answered();
      return { status: 503, headers: { 'retry-after': '30' }, body: { error: { message: 'overloaded' } } };
    };
    await withServer(driver, reply, async (server) => {
      const model = await modelOf(driver, server);
      const controller = new AbortController();
      const started = Date.now();
      const pending = model.complete(ask('Hi', { signal: controller.signal }));
      // Abort once the first answer (503, wait 30 s) is on its way.
      await asked;
      controller.abort(new WeirError('CANCELLED', 'execution cancelled'));
      const err = await failure(pending);
      assert.is(err.code, 'CANCELLED');
      assert.ok(Date.now() - started < 10_000, 'did not wait out Retry-After');
      assert.is(server.requests.length, 1);
    });
  });
}

test('openai: JSON-schema mode sends response_format, strict only when the schema allows it', async () => {
  await withServer('openai', () => ({ text: '{"answer":42}' }), async (server) => {
    const model = await modelOf('openai', server);
    const strict = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'], additionalProperties: false };
    const turn = await model.complete(ask('?', { output: { schema: strict } }));
    assert.is(turn.text, '{"answer":42}');
    assert.equal(server.requests[0].body.response_format, { type: 'json_schema', json_schema: { name: 'answer', schema: strict, strict: true } });
    const loose = { type: 'object', properties: { answer: { type: 'number' } } };
    await model.complete(ask('?', { output: { schema: loose } }));
    assert.is(server.requests[1].body.response_format.json_schema.strict, false);
  });
});

test('openai: a /v1 base URL (as Ollama documents it) is not doubled; no key is needed off api.openai.com', async () => {
  await withServer('openai', () => ({ text: 'hi' }), async (server) => {
    const home = makeHome({ providers: { llm: { driver: 'openai', baseUrl: `${server.url}/v1/`, model: 'llama3.2' } } });
    const model = await withWeir(home, async (weir) => createChatModel(weir.config, await weir.secrets.values()));
    assert.is((await model.complete(ask('Hi'))).text, 'hi');
    assert.is(server.requests[0].path, '/v1/chat/completions');
    assert.not.ok('authorization' in server.requests[0].headers);
  });
});

test('openai: tool arguments that are not JSON are a clear error', async () => {
  const broken = { choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{city: Oslo' } }] } }] };
  await withServer('openai', () => ({ body: broken }), async (server) => {
    const model = await modelOf('openai', server);
    const err = await failure(model.complete(ask('?', { tools: [weather] })));
    assert.is(err.code, 'PROVIDER');
    assert.is(err.message, 'the model "test-model" called the tool "get_weather" with arguments that are not JSON: {city: Oslo');
  });
});

test('anthropic: a structured answer is asked for with a forced tool, and its input is the answer', async () => {
  const reply = ({ body }: { body: any }): Reply => ({ toolCalls: [{ name: body.tool_choice.name ?? 'json_answer', input: body.tools.at(-1).input_schema.properties.value ? { value: [1, 2] } : { answer: 42 } }] });
  await withServer('anthropic', reply, async (server) => {
    const model = await modelOf('anthropic', server);
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    const turn = await model.complete(ask('?', { output: { schema } }));
    assert.equal(turn, { text: '{"answer":42}', toolCalls: [], usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 }, model: 'test-model' });
    const sent = server.requests[0].body;
    assert.equal(sent.tools, [{ name: 'json_answer', description: 'Give your final answer: its input is the answer, as JSON matching this schema.', input_schema: schema }]);
    assert.equal(sent.tool_choice, { type: 'tool', name: 'json_answer' });
    // With other tools the model must call one of them or the answer tool.
    await model.complete(ask('?', { output: { schema }, tools: [weather] }));
    assert.equal(server.requests[1].body.tool_choice, { type: 'any' });
    assert.equal(server.requests[1].body.tools.map((t: any) => t.name), ['get_weather', 'json_answer']);
    // A schema that is not an object is wrapped as {value}, and unwrapped.
    const list = await model.complete(ask('?', { output: { schema: { type: 'array', items: { type: 'number' } } } }));
    assert.is(list.text, '[1,2]');
  });
});

test('a Retry-After longer than a minute fails at once, saying how long the service asks to wait; HTTP-date Retry-After is read', async () => {
  await withServer('openai', () => ({ status: 429, headers: { 'retry-after': '3600' }, body: { error: { message: 'Rate limit reached for requests' } } }), async (server) => {
    const model = await modelOf('openai', server);
    const started = Date.now();
    const err = await failure(model.complete(ask('Hi')));
    assert.ok(Date.now() - started < 5_000);
    assert.is(server.requests.length, 1);
    assert.is(err.message, 'the model server refused POST /v1/chat/completions (429): Rate limit reached for requests');
    assert.equal(err.hints, ['the model server asks to wait 3600s before trying again']);
  });
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.is(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now), 5000);
  assert.is(retryAfterMs(new Headers({ 'retry-after': '1.5' }), now), 1500);
  assert.is(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now), 250);
  assert.is(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now), undefined);
});

test('no providers.llm: the error says what to set; unknown driver and no key for the real service are config errors', async () => {
  const none = await failure(Promise.resolve().then(() => createChatModel({}, {})));
  assert.is(none.code, 'INVALID_CONFIG');
  assert.match(none.message, /^no language model configured: set providers\.llm in weir\.config\.json, e\.g\. \{"providers": \{"llm": \{"driver": "openai", "model": "[^"]+"\}\}\}$/);
  assert.match(none.hints.join('\n'), 'weir secrets set OPENAI_API_KEY');

  const unknown = await failure(Promise.resolve().then(() => createChatModel({ providers: { llm: { driver: 'gemini', model: 'x' } } } as unknown as WeirConfig, {})));
  assert.is(unknown.message, 'providers.llm.driver in weir.config.json must be one of openai, anthropic, got "gemini"');
  const schema = await failure(Promise.resolve().then(() => checkConfig({ providers: { llm: { driver: 'gemini', model: 'x' } } }, 'weir.config.json')));
  assert.match(schema.message, 'weir.config.json: providers.llm.driver: must be one of openai, anthropic, got "gemini"');

  for (const driver of DIALECTS) {
    const err = await failure(Promise.resolve().then(() => createChatModel({ providers: { llm: { driver, model: 'm' } } }, {})));
    assert.is(err.code, 'INVALID_CONFIG');
    assert.match(err.message, `needs the secret ${KEY[driver]}`);
    assert.equal(err.hints, [`set it with \`weir secrets set ${KEY[driver]} <value>\``]);
  }
});

test('a server that is not there: the error names providers.llm.baseUrl', async () => {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  const model = createChatModel({ providers: { llm: { driver: 'openai', baseUrl: `http://127.0.0.1:${port}`, model: 'm' } } }, {});
  const err = await failure(model.complete(ask('Hi')));
  assert.is(err.code, 'PROVIDER');
  assert.match(err.message, `cannot reach the model server at http://127.0.0.1:${port}: ECONNREFUSED`);
  assert.equal(err.hints, ['check the network or providers.llm.baseUrl in weir.config.json']);
});

test.run();
