/**
 * What the deployed bundles get in place of browser polyfills that Node has built in (esbuild's
 * `alias` in lib/function-bundles.ts): `lie` (a Promise, which jszip takes only where no global
 * Promise exists) and `setimmediate` (required by jszip for its side effect, a global Node has).
 * 5.8 KB less in every bundle that reads zip files.
 */
export {};
