/**
 * CDK writes "Bundling asset <path>..." to stderr for every function it bundles (about 80 in a
 * test run): progress for a person at `cdk synth`, noise around test results. Those lines are
 * dropped while `fn` runs; anything else CDK or esbuild writes (a warning, an error) still shows.
 */
export function quietBundling<T>(fn: () => T): T {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with `.call(this)` below
  const write = process.stderr.write;
  process.stderr.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
    if (typeof chunk === 'string' && /^Bundling asset \S+\.\.\.\n$/.test(chunk)) return true;
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  };
  try {
    return fn();
  } finally {
    process.stderr.write = write;
  }
}
