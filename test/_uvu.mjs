// What the test files get for `import ... from 'uvu'` in npm test's workers (test/_worker.mjs maps it here):
// uvu, with each test's thrown error made printable. uvu prints an error's `details` as a diff and throws on
// one that is not a string (a WeirError's problems): the failure then showed no message and ended its file's
// run there. Such details are printed as JSON instead.
import * as uvu from 'uvu';

export * from 'uvu';

/** The handler, its error's `details` turned to JSON text when they are not text. */
const printable = (handler) => async (context) => {
  try {
    await handler(context);
  } catch (err) {
    if (err && typeof err === 'object' && err.details !== undefined && typeof err.details !== 'string') {
      try {
        err.details = JSON.stringify(err.details, null, 2);
      } catch {
        err.details = String(err.details);
      }
    }
    throw err;
  }
};

/** A suite whose tests' errors print (see {@link printable}); hooks and `run` are uvu's own. */
const wrap = (suite) => {
  const add = (name, handler) => (typeof name === 'function' ? suite(printable(name)) : suite(name, printable(handler)));
  return Object.assign(add, suite, { only: (name, handler) => suite.only(name, printable(handler)) });
};

export const test = wrap(uvu.test);
export const suite = (...args) => wrap(uvu.suite(...args));
