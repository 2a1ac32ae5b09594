// Module hooks of npm test's workers (registered by test/_worker.mjs): `uvu` imported by a test file resolves to
// test/_uvu.mjs; that file's own import of `uvu` is uvu's.
const wrapper = new URL('./_uvu.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'uvu' && context.parentURL !== wrapper && !context.parentURL?.includes('/node_modules/')) return { url: wrapper, shortCircuit: true };
  return next(specifier, context);
}
