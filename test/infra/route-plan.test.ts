/** The pure rules of lib/route-plan.ts and lib/settings.ts. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRoutes, groupRoutes, MAX_ROUTES_PER_STACK, routesFingerprint } from '../../lib/route-plan.js';
import { settingsFromContext } from '../../lib/settings.js';
import { ROUTES, type RouteDef } from '../../shared/routes/index.js';
import { syntheticRoutes } from './synth.js';

const base = ROUTES[0]!;
const withRoute = (patch: Partial<RouteDef>): RouteDef[] => [base, { ...base, id: 'x', path: '/x', ...patch }];

describe('checkRoutes', () => {
  it('accepts the route table', () => {
    expect(() => checkRoutes(ROUTES)).not.toThrow();
  });

  it('names the route that breaks a rule', () => {
    expect(() => checkRoutes(withRoute({ id: base.id }))).toThrow(`route id ${base.id} is used twice`);
    const duplicate = withRoute({ method: base.method, path: base.path });
    expect(() => checkRoutes(duplicate)).toThrow(/route x: .* declared twice/);
    expect(() => checkRoutes(withRoute({ path: 'no-slash' }))).toThrow(/route x: path/);
    expect(() => checkRoutes(withRoute({ path: '/a//b' }))).toThrow(/route x: path/);
    expect(() => checkRoutes(withRoute({ timeoutSeconds: 60 }))).toThrow(/route x: timeoutSeconds 60/);
  });

  it('lets a streaming route run long', () => {
    expect(() => checkRoutes(withRoute({ streaming: true, timeoutSeconds: 60 }))).not.toThrow();
  });
});

describe('groupRoutes', () => {
  it('one group per tag, in the order tags appear', () => {
    const tags = [...new Set(ROUTES.map((r) => r.tag))];
    const expected = tags.map(
      (t) =>
        `Routes${t
          .split(/[^a-zA-Z0-9]+/)
          .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
          .join('')}`,
    );
    expect(groupRoutes(ROUTES).map((g) => g.stackId)).toEqual(expected);
    expect(expected).toContain('RoutesTenants');
  });

  it('splits a tag over MAX_ROUTES_PER_STACK and keeps every route once', () => {
    const routes = syntheticRoutes(MAX_ROUTES_PER_STACK * 2 + 1, 1);
    const groups = groupRoutes(routes);
    expect(groups.map((g) => g.routes.length)).toEqual([MAX_ROUTES_PER_STACK, MAX_ROUTES_PER_STACK, 1]);
    expect(groups.flatMap((g) => g.routes)).toEqual(routes);
  });

  it('makes stack names from tags with dashes', () => {
    const routes = [{ ...base, tag: 'threat-libraries' }];
    expect(groupRoutes(routes)[0]!.stackId).toBe('RoutesThreatLibraries');
  });
});

describe('routesFingerprint', () => {
  it('ignores order, follows methods, paths and streaming', () => {
    const routes = syntheticRoutes(5, 2);
    expect(routesFingerprint([...routes].reverse())).toBe(routesFingerprint(routes));
    expect(routesFingerprint(routes.slice(1))).not.toBe(routesFingerprint(routes));
    const streamed = routes.map((r, i) => (i === 0 ? { ...r, streaming: true } : r));
    expect(routesFingerprint(streamed)).not.toBe(routesFingerprint(routes));
  });
});

describe('settingsFromContext', () => {
  // An app makes its assembly's folder at once (a temporary one without `outdir`): one for all, removed after.
  const outdir = mkdtempSync(join(tmpdir(), 'gatehouse-settings-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));
  const settings = (context: Record<string, unknown>) => settingsFromContext(new App({ context, outdir }).node);

  it('defaults to stage dev with deletion protection', () => {
    expect(settings({})).toEqual({
      stage: 'dev',
      deletionProtection: true,
      tracing: false,
      logLevel: 'debug',
      logSampleRate: 0,
      logRetentionDays: 14,
      userPoolFeaturePlan: 'essentials',
    });
  });

  it('logs by stage: prod at info with 1% sampled at debug, kept 90 days; others at debug, kept 14 days', () => {
    expect(settings({ stage: 'prod' })).toMatchObject({ logLevel: 'info', logSampleRate: 0.01, logRetentionDays: 90 });
    expect(settings({ stage: 'staging' })).toMatchObject({ logLevel: 'debug', logSampleRate: 0, logRetentionDays: 14 });
    expect(settings({ stage: 'prod', logLevel: 'warn', logSampleRate: '0', logRetentionDays: '30' })).toMatchObject({
      logLevel: 'warn',
      logSampleRate: 0,
      logRetentionDays: 30,
    });
    expect(() => settings({ logSampleRate: '2' })).toThrow(/context logSampleRate/);
    expect(() => settings({ logRetentionDays: '31' })).toThrow(/context logRetentionDays/);
    expect(() => settings({ alarmEmail: 'ops at harbour' })).toThrow(/context alarmEmail/);
    expect(settings({ alarmEmail: 'ops@harbour.example' })).toMatchObject({ alarmEmail: 'ops@harbour.example' });
  });

  it('reads -c values, which arrive as strings', () => {
    expect(settings({ stage: 'prod', deletionProtection: 'false', tracing: 'true' })).toMatchObject({
      stage: 'prod',
      deletionProtection: false,
      tracing: true,
    });
  });

  it('rejects bad values by name', () => {
    expect(() => settings({ stage: 'Prod_1' })).toThrow(/context stage/);
    expect(() => settings({ deletionProtection: 'no' })).toThrow(/context deletionProtection/);
    expect(() => settings({ logLevel: 'verbose' })).toThrow(/context logLevel/);
    expect(() => settings({ alarmTopicArn: 'paging-topic' })).toThrow(/context alarmTopicArn must be an SNS topic ARN/);
    expect(() => settings({ bedrockModelId: 'has spaces' })).toThrow(/context bedrockModelId/);
    expect(() => settings({ emailFrom: 'alerts at harbour' })).toThrow(
      /context emailFrom must be an email address verified in Amazon SES/,
    );
  });

  it('takes an alarm topic and a model id when given, and leaves them out otherwise', () => {
    const arn = 'arn:aws:sns:eu-west-1:123456789012:gatehouse-paging';
    expect(
      settings({ alarmTopicArn: arn, bedrockModelId: 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0' }),
    ).toMatchObject({
      alarmTopicArn: arn,
      bedrockModelId: 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0',
    });
    expect(settings({})).not.toHaveProperty('alarmTopicArn');
    expect(settings({ emailFrom: 'alerts@harbour.example' })).toMatchObject({ emailFrom: 'alerts@harbour.example' });
    expect(settings({})).not.toHaveProperty('emailFrom');
    expect(settings({ alarmTopicArn: '' })).not.toHaveProperty('alarmTopicArn');
  });
});
