/**
 * `node --import ./test/support/ts-resolve.mjs file.ts`: runs the repository's TypeScript on Node's
 * own support for it (Node 22.15 and later: type stripping, and `--experimental-transform-types`
 * for the few constructor parameter properties), without tsx. The sources import each other as
 * `./module.js` (NodeNext), so a `.js` import that is not found, made by a file of the repository,
 * is resolved to the `.ts` beside it. Nothing else is hooked: a module Node loads itself is not
 * read again, where tsx rewrites every ES module it loads (it makes each dynamic import an
 * interop call and inlines a source map of the change).
 *
 * Used for the test run's stack processes (global-setup.ts), which serve the bundles `cdk synth`
 * builds: under tsx, loading the 178 bundles (0.5 MB each) took 16 CPU s, on Node alone 4.
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const fromSources = context.parentURL?.startsWith('file:') && !context.parentURL.includes('/node_modules/');
      if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !fromSources || !specifier.endsWith('.js')) throw error;
      return nextResolve(`${specifier.slice(0, -'.js'.length)}.ts`, context);
    }
  },
});
