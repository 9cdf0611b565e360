/**
 * cdk-nag AwsSolutionsChecks over the whole app (parent and nested stacks): nothing left
 * unacknowledged, and every acknowledgement is needed, specific and explained.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/routes/index.js';
import { nagFindings, synth } from './synth.js';

interface Acknowledgement {
  path: string;
  id: string;
  reason: string;
}

/** Every acknowledgement recorded in the construct tree. */
function acknowledgements(root: IConstruct): Acknowledgement[] {
  return root.node.findAll().flatMap((c) =>
    c.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) =>
        Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({
          path: c.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

/** Findings as if nothing were acknowledged: rule id and the construct path of each. */
function rawFindings(root: App): { id: string; path: string }[] {
  const pack = new AwsSolutionsChecks(root);
  // Test-only: see every finding, acknowledged or not.
  (pack as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false;
  return pack
    .validateScope(root)
    .violations.flatMap((v) => v.violatingResources.map((r) => ({ id: v.ruleName, path: r.constructPath ?? '' })));
}

describe('cdk-nag AwsSolutionsChecks', () => {
  const s = synth();
  // The other branches of the code: X-Ray, the Plus plan, a streaming route.
  const streaming = { ...ROUTES[0]!, id: 'synthetic.stream', path: '/api/v1/synthetic/stream', streaming: true };
  const variant = synth({ tracing: true, userPoolFeaturePlan: 'plus', routes: [...ROUTES, streaming] });

  it('reports no unacknowledged error or warning', () => {
    expect(nagFindings(s.app)).toEqual([]);
  });

  it('also with tracing, the Plus feature plan and a streaming route', () => {
    expect(nagFindings(variant.app)).toEqual([]);
  });

  it.each([
    ['default', s.app],
    ['variant', variant.app],
  ] as const)('every acknowledgement silences a real finding at or under its construct (%s)', (_name, app) => {
    const raw = rawFindings(app);
    const unused = acknowledgements(app).filter(
      (ack) => !raw.some((f) => f.id === ack.id && (f.path === ack.path || f.path.startsWith(`${ack.path}/`))),
    );
    expect(unused).toEqual([]);
  });

  it('every acknowledgement gives a reason; IAM4/IAM5 ones name their single finding', () => {
    const acks = acknowledgements(s.app);
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.reason.length, `${ack.id} at ${ack.path}`).toBeGreaterThan(40);
      if (/AwsSolutions-IAM[45]/.test(ack.id)) expect(ack.id, ack.path).toMatch(/^AwsSolutions-IAM[45]\[.+\]$/);
    }
  });

  it('no acknowledgement is made for a whole stack', () => {
    const stackPaths = new Set([s.stack, ...s.stack.routeStacks].map((st) => st.node.path));
    expect(acknowledgements(s.app).filter((ack) => stackPaths.has(ack.path))).toEqual([]);
  });

  it('still catches a finding (the checker is live)', () => {
    // An app makes its assembly's folder at once, a temporary one without `outdir`.
    const outdir = mkdtempSync(join(tmpdir(), 'gatehouse-nag-'));
    try {
      const app = new App({ outdir });
      new s3.Bucket(new Stack(app, 'Probe'), 'Unlogged');
      const rules = nagFindings(app).map((f) => f.rule);
      expect(rules).toEqual(expect.arrayContaining(['AwsSolutions-S1', 'AwsSolutions-S10']));
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
