import * as assert from 'uvu/assert';
import { WeirError, type Sandbox } from '../../src/index.js';

/**
 * `run(code, globals)` and `failure(code)` over one sandbox: `failure` resolves with the WeirError the run
 * failed with, and fails the test when the run succeeds.
 */
export function runner(sandbox: Sandbox) {
  const run = (code: string, globals: Record<string, unknown> = {}) => sandbox.run(code, { globals });
  async function failure(code: string): Promise<WeirError> {
    try {
      await run(code);
    } catch (err) {
      assert.instance(err, WeirError);
      return err as WeirError;
    }
    throw new Error(`expected ${code} to fail`);
  }
  return { run, failure };
}
