/**
 * The order `npm test` starts its files in (test/support/sequencer.ts), on a fresh clone (no
 * results cache): the long files first across the projects, then each project's short files
 * together, the unit project's last. Order is what decides how many worker processes a run starts
 * and what is left running at its end; a change that undoes it shows in no other test.
 */
import type { TestSpecification } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { LongestFirstSequencer } from '../support/sequencer.js';

const ROOT = '/repo';

/** The sequencer as vitest makes it, with no results cache (a fresh clone). */
function freshSequencer(): LongestFirstSequencer {
  const ctx = { cache: { getTestSpecificationResult: () => undefined }, config: { root: ROOT } };
  return new LongestFirstSequencer(ctx as unknown as ConstructorParameters<typeof LongestFirstSequencer>[0]);
}

/** A file of a project; every project but `unit` starts the local stack (a globalSetup). */
const spec = (project: string, path: string) =>
  ({
    project: { name: project, config: { globalSetup: project === 'unit' ? [] : ['test/support/global-setup.ts'] } },
    moduleId: `${ROOT}/${path}`,
  }) as unknown as TestSpecification;

const FILES = [
  spec('unit', 'test/unit/ids.test.ts'),
  spec('unit', 'test/isolation/coverage.test.ts'),
  spec('bundles', 'test/e2e/walkthrough.test.ts'),
  spec('stack', 'test/integration/outbound.test.ts'),
  spec('bundles', 'test/isolation/routes-events.test.ts'),
  spec('e2e', 'test/e2e/sites.test.ts'),
  spec('unit', 'test/unit/openapi.test.ts'),
  spec('e2e', 'test/e2e/analytics.test.ts'),
  spec('stack', 'test/integration/stopped-worker.test.ts'),
  spec('bundles', 'test/e2e/platform.test.ts'),
  spec('unit', 'test/isolation/generator.test.ts'),
  spec('e2e', 'test/e2e/portal.test.ts'),
];

const order = async () =>
  (await freshSequencer().sort(FILES)).map((s) => `${s.project.name} ${s.moduleId.slice(ROOT.length + 1)}`);

describe('the order of the files in a run', () => {
  it('starts the long files first, longest first, whatever their project', async () => {
    expect((await order()).slice(0, 4)).toEqual([
      'e2e test/e2e/analytics.test.ts',
      'stack test/integration/stopped-worker.test.ts',
      'e2e test/e2e/portal.test.ts',
      'bundles test/isolation/routes-events.test.ts',
    ]);
  });

  it("then a project's short files together, the unit project's last (the pure isolation files among them)", async () => {
    const projects = (await order()).slice(4).map((line) => line.split(' ')[0]);
    // Each project once: a worker changes process only where the project changes.
    const runs = projects.filter((p, i) => p !== projects[i - 1]);
    expect([...runs].sort()).toEqual(['bundles', 'e2e', 'stack', 'unit']);
    expect(runs.at(-1)).toBe('unit');
    expect((await order()).slice(-4)).toEqual([
      'unit test/unit/openapi.test.ts',
      'unit test/unit/ids.test.ts',
      'unit test/isolation/coverage.test.ts',
      'unit test/isolation/generator.test.ts',
    ]);
  });
});
