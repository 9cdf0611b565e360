/**
 * What a stage's operators get from the synthesized stack (lib/observability.ts, lib/function.ts):
 * the dashboard and its panels, every alarm wired to the one topic with a runbook entry that
 * exists, and every function logging JSON to a log group with a retention, traced by X-Ray.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/function.js';
import { ROUTE_GROUPS, routeGroups } from '../../lib/route-groups.js';
import { RUNBOOK_PATH } from '../../lib/runbook.js';
import { ROUTES } from '../../shared/routes/index.js';
import { FEED_NAMES } from '../../shared/schemas/feed-catalog.js';
import { DEPLOYED_WORKERS } from '../../shared/workers.js';
import { defaultTemplates, resourcesOfType } from './synth.js';

const s = defaultTemplates();

/** GitHub's anchor of a Markdown heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');
const runbook = readFileSync(join(PROJECT_ROOT, RUNBOOK_PATH), 'utf8');
const anchors = new Set([...runbook.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

/** The parent's topic, and what each nested stack's parameter stands for in the parent. */
const [[topicId]] = resourcesOfType(s.parent, 'AWS::SNS::Topic') as [[string, any]];
const workersParameters = (() => {
  return (s.parent.toJSON() as any).Resources[s.workersStackId].Properties.Parameters as Record<string, any>;
})();

/** Every alarm of the parent and the workers' stack, with its actions resolved to the parent's resources. */
const alarms = [
  ...resourcesOfType(s.parent, 'AWS::CloudWatch::Alarm').map(([, a]) => ({
    props: a.Properties,
    actions: a.Properties.AlarmActions,
    ok: a.Properties.OKActions,
  })),
  ...resourcesOfType(s.workers, 'AWS::CloudWatch::Alarm').map(([, a]) => {
    const resolve = (refs: any[]) => refs.map((r) => workersParameters[r.Ref as string]);
    return {
      props: a.Properties,
      actions: resolve(a.Properties.AlarmActions ?? []),
      ok: resolve(a.Properties.OKActions ?? []),
    };
  }),
];
const alarmNamed = (name: string) => alarms.find((a) => a.props.AlarmName === `gatehouse-test-${name}`);

describe('the alarm topic', () => {
  it('is encrypted with a rotated key CloudWatch may use, refuses plain HTTP, and mails AlarmEmail when given', () => {
    const [[, topic]] = resourcesOfType(s.parent, 'AWS::SNS::Topic') as [[string, any]];
    expect(topic.Properties).toMatchObject({ TopicName: 'gatehouse-test-alarms', KmsMasterKeyId: expect.anything() });
    const keyId = topic.Properties.KmsMasterKeyId['Fn::GetAtt'][0] as string;
    const key = (s.parent.toJSON() as any).Resources[keyId];
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    s.parent.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    s.parent.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Action: 'sns:Publish',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
          }),
        ]),
      },
    });
    const template = s.parent.toJSON() as any;
    expect(template.Parameters.AlarmEmail).toMatchObject({ Type: 'String', Default: '' });
    const [[, subscription]] = resourcesOfType(s.parent, 'AWS::SNS::Subscription') as [[string, any]];
    expect(subscription.Properties).toMatchObject({
      Protocol: 'email',
      Endpoint: { Ref: 'AlarmEmail' },
      TopicArn: { Ref: topicId },
    });
    expect(template.Conditions[subscription.Condition as string]).toEqual({
      'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'AlarmEmail' }, ''] }],
    });
  });
});

describe('alarms', () => {
  const expected = [
    'api-5xx-rate',
    ...ROUTE_GROUPS.map((g) => `api-p99-${g.id}`),
    ...DEPLOYED_WORKERS.map((w) => `${w.id}-dead-letters`),
    'stream-iterator-age',
    'lambda-throttles',
    'webhook-exhausted',
    ...FEED_NAMES.map((f) => `feed-${f}-failing`),
    'audit-digests-behind',
  ];

  it('every alarm the issue lists exists', () => {
    expect(alarms.map((a) => a.props.AlarmName as string).sort()).toEqual(
      expected.map((n) => `gatehouse-test-${n}`).sort(),
    );
  });

  it('every alarm notifies the topic when it fires and when it clears', () => {
    for (const a of alarms) {
      expect(a.actions, a.props.AlarmName).toEqual([{ Ref: topicId }]);
      expect(a.ok, a.props.AlarmName).toEqual([{ Ref: topicId }]);
    }
  });

  it("every alarm's description links an entry of docs/runbook.md that exists", () => {
    expect(anchors.size).toBeGreaterThan(5);
    for (const a of alarms) {
      const link = /docs\/runbook\.md#([\w-]+)/.exec(a.props.AlarmDescription as string);
      expect(link, a.props.AlarmName).not.toBeNull();
      expect([...anchors], `${a.props.AlarmName} links #${link![1]}`).toContain(link![1]);
    }
  });

  it('each evaluation window is one CloudWatch accepts (1 day under an hour a period, else 7 days)', () => {
    for (const a of alarms) {
      const periods = [a.props.Period, ...(a.props.Metrics ?? []).map((m: any) => m.MetricStat?.Period ?? m.Period)];
      const period = Math.max(...periods.filter((p): p is number => typeof p === 'number'));
      const window = period * (a.props.EvaluationPeriods as number);
      expect(window, a.props.AlarmName).toBeLessThanOrEqual(period < 3600 ? 86_400 : 604_800);
    }
  });

  it('the thresholds say what the issue asks', () => {
    expect(alarmNamed('stream-iterator-age')!.props).toMatchObject({
      Threshold: 60_000,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    expect(alarmNamed('webhook-exhausted')!.props).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Namespace: 'Gatehouse',
      MetricName: 'WebhookExhausted',
      Dimensions: expect.arrayContaining([
        { Name: 'service', Value: 'gatehouse' },
        { Name: 'stage', Value: 'test' },
      ]),
    });
    expect(alarmNamed('audit-digests-behind')!.props).toMatchObject({
      MetricName: 'AuditDigestLagSeconds',
      Statistic: 'Maximum',
      Threshold: 7200,
      TreatMissingData: 'breaching',
    });
    const feed = alarmNamed(`feed-${FEED_NAMES[0]}-failing`)!.props;
    expect(feed.EvaluationPeriods).toBe(3);
    expect(JSON.stringify(feed.Metrics)).toContain('"MetricName":"FeedPolls"');
    for (const g of ROUTE_GROUPS) expect(alarmNamed(`api-p99-${g.id}`)!.props.Threshold).toBe(g.p99BudgetMs);
  });
});

describe('the dashboard', () => {
  const [[, dashboard]] = resourcesOfType(s.parent, 'AWS::CloudWatch::Dashboard') as [[string, any]];
  const body = (dashboard.Properties.DashboardBody['Fn::Join'][1] as unknown[])
    .filter((p) => typeof p === 'string')
    .join('');

  it('is the stage’s and has the panels the issue lists', () => {
    expect(dashboard.Properties.DashboardName).toBe('gatehouse-test');
    for (const title of [
      'API requests by route group',
      'API 4xx by route group',
      'API 5xx by route group',
      'API p99 latency by route group',
      'Lambda errors',
      'Lambda throttles',
      'Lambda duration p99',
      'DynamoDB throttles',
      'DynamoDB consumed capacity',
      'Table stream iterator age',
      'Queue depth',
      'Queue age of oldest message',
      'Webhook success rate',
      'Alarms',
    ])
      expect(body, title).toContain(`"title":"${title}`);
  });

  it('shows every metric of the contract and every route group', () => {
    for (const metric of [
      'EventsIngested',
      'IdempotentReplays',
      'IncidentsOpened',
      'IncidentsAcknowledged',
      'IncidentSlaBreached',
      'Escalations',
      'WebhookAttempts',
      'WebhookExhausted',
      'NotificationsSent',
      'FeedPolls',
      'FeedRecords',
      'McpToolCalls',
      'RateLimitRefusals',
      'AuditDigestLagSeconds',
    ])
      expect(body, metric).toContain(metric);
    for (const g of ROUTE_GROUPS) expect(body).toContain(`Gatehouse/Api/${g.id}`);
  });

  it('the route groups are counted from the access log, by stage', () => {
    const filters = resourcesOfType(s.parent, 'AWS::Logs::MetricFilter');
    expect(filters).toHaveLength(4 * ROUTE_GROUPS.length);
    const latency = filters.find(
      ([, f]) =>
        f.Properties.MetricTransformations[0].MetricNamespace === 'Gatehouse/Api/events' &&
        f.Properties.MetricTransformations[0].MetricName === 'Latency',
    )![1];
    expect(latency.Properties.MetricTransformations[0]).toMatchObject({
      MetricValue: '$.responseLatency',
      Unit: 'Milliseconds',
      Dimensions: [{ Key: 'stage', Value: '$.stage' }],
    });
    // The event stream lasts minutes by design: not in its group's latency.
    expect(latency.Properties.FilterPattern).toContain('$.resourcePath != "/api/v1/events/stream"');
  });
});

describe('route groups', () => {
  it('every path of the route table is in a named group', () => {
    const groups = routeGroups(ROUTES);
    expect(groups.map((g) => g.id)).not.toContain('other');
    expect(groups.flatMap((g) => g.routes).length).toBe(ROUTES.length);
  });

  it('a path no group names falls in `other`; a prefix that would catch another group’s is refused', () => {
    const route = { ...ROUTES[0]!, id: 'x.get', path: '/api/v1/brand-new' };
    expect(routeGroups([route]).find((g) => g.id === 'other')!.prefixes).toEqual(['/api/v1/brand-new']);
    const clash = [...ROUTE_GROUPS, { id: 'x', description: 'x', p99BudgetMs: 1, segments: ['incident'] }];
    expect(() => routeGroups(ROUTES, clash)).toThrow(/\/api\/v1\/incident .* would also match \/api\/v1\/incidents/);
  });
});
