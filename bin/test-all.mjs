#!/usr/bin/env node
/**
 * `npm test`: the type check (`npm run typecheck`), the layer rules (`npm run lint:deps`) and every
 * vitest project, at once. The type check and the layer rules use one core for about 50 s on a
 * fresh clone; the test run leaves a fifth of the cores idle while its files wait, and at nice 19
 * the checks take that, at no wall time, where before the tests they added 50 s. Arguments go to
 * vitest (`npm test -- test/unit`).
 *
 * The checks' output is held and printed when each ends, under its name, so it does not
 * interleave with vitest's. The exit status is the first failure's, or 0 when all pass.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Runs a command; resolves to its exit status. A `check` (beside the tests) has its output held
 * until it ends and runs at the lowest priority (nice 19, inherited by what it starts): it takes
 * the cores the tests leave idle, and still ends long before them.
 */
function run(name, command, args, { check }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, stdio: check ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (check && child.pid !== undefined) setPriority(child.pid, 19);
    let output = '';
    if (check) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('error', (error) => {
      output += `${error.message}\n`;
    });
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      if (check) {
        const seconds = ((performance.now() - started) / 1000).toFixed(0);
        process.stdout.write(`\n[${name}] ${status === 0 ? 'passed' : 'FAILED'} in ${seconds} s\n`);
        if (status !== 0 || output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      }
      resolve(status);
    });
  });
}

const startedAll = performance.now();
const statuses = await Promise.all([
  run('typecheck', 'npm', ['run', '--silent', 'typecheck'], { check: true }),
  run('lint:deps', 'npm', ['run', '--silent', 'lint:deps'], { check: true }),
  run('vitest', join(root, 'node_modules', '.bin', 'vitest'), ['run', ...process.argv.slice(2)], { check: false }),
]);
const failed = statuses.find((s) => s !== 0);
// The whole run, checks and teardown included (vitest's "Duration" leaves out its start and stop).
process.stdout.write(`\nnpm test: ${((performance.now() - startedAll) / 1000).toFixed(0)} s in all\n`);
if (failed !== undefined) {
  process.stdout.write(
    `\nnpm test failed: typecheck ${statuses[0]}, lint:deps ${statuses[1]}, vitest ${statuses[2]}\n`,
  );
}
process.exit(failed ?? 0);
