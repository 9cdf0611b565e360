/**
 * AWS's limits on what the stack deploys, checked on the synthesized templates of the real app
 * (the route and worker tables as they are), with the headroom written to
 * `.test-logs/limits.txt` (docs/operations.md lists the quotas a deployer may have to raise):
 *
 * - per template: 500 resources, 200 parameters, 200 outputs, 1 MB (CloudFormation);
 * - per role: 10,240 characters of inline policy, minified, with every reference resolved to an
 *   ARN of 100 characters (IAM: "Role policy size");
 * - per function: 4 KB of environment variables, names and values (Lambda), references resolved
 *   likewise;
 * - per REST API: 300 resources (API Gateway: "Resources per API");
 * - per event bus: 300 rules (EventBridge: "Rules per event bus");
 * - per account: 1,000 IAM roles (IAM: "Roles per account"), which must hold three stages.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultTemplates } from './synth.js';

type Json = Record<string, any>;

/** A reference (Ref, GetAtt, ImportValue) stands for an ARN or name this long once deployed. */
const RESOLVED_REFERENCE = 'x'.repeat(100);
const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws-us-gov',
  'AWS::Region': 'ap-southeast-2',
  'AWS::AccountId': '123456789012',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'Gatehouse-production',
};

/** A CloudFormation value with its intrinsic functions evaluated as a deployed stack would. */
function resolveValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolveValue);
  if (!value || typeof value !== 'object') return value;
  const object = value as Json;
  const [key] = Object.keys(object);
  if (Object.keys(object).length === 1 && key) {
    const arg = object[key];
    if (key === 'Ref') return PSEUDO[arg as string] ?? RESOLVED_REFERENCE;
    if (key === 'Fn::GetAtt' || key === 'Fn::ImportValue') return RESOLVED_REFERENCE;
    if (key === 'Fn::Join') {
      const [separator, parts] = arg as [string, unknown[]];
      return (parts.map(resolveValue) as string[]).join(separator);
    }
    if (key === 'Fn::Sub') {
      const template = typeof arg === 'string' ? arg : (arg as [string])[0];
      return template.replace(/\$\{([^}]+)\}/g, (_, name: string) => PSEUDO[name] ?? RESOLVED_REFERENCE);
    }
    if (key === 'Fn::Select') {
      const [index, list] = arg as [number, unknown];
      const resolved = resolveValue(list);
      return Array.isArray(resolved) ? resolved[index] : RESOLVED_REFERENCE;
    }
    if (key === 'Fn::Split') return [RESOLVED_REFERENCE];
    if (key === 'Fn::If') return resolveValue((arg as unknown[])[1]);
  }
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, resolveValue(v)]));
}

const s = defaultTemplates();
const templates: [string, Json][] = [
  ['parent', s.parent.toJSON()],
  ...[...s.nested].map(([id, t]): [string, Json] => [id, t.toJSON()]),
  ['Workers', s.workers.toJSON()],
];
const resourcesOf = (template: Json) => Object.entries((template.Resources ?? {}) as Record<string, Json>);
const allResources = templates.flatMap(([name, template]) =>
  resourcesOf(template).map(([id, r]) => ({ template: name, id, r })),
);

/** Figures for the report: what, the largest measured, the quota. */
const figures: { what: string; largest: number; quota: number; where: string }[] = [];
function record(what: string, measured: { value: number; where: string }[], quota: number): number {
  const largest = measured.reduce((a, b) => (b.value > a.value ? b : a), { value: 0, where: '-' });
  figures.push({ what, largest: largest.value, quota, where: largest.where });
  return largest.value;
}

afterAll(() => {
  const lines = figures.map(
    (f) =>
      `${f.what}: largest ${f.largest.toLocaleString('en')} of ${f.quota.toLocaleString('en')} ` +
      `(${Math.round((100 * f.largest) / f.quota)}%, headroom ${(f.quota - f.largest).toLocaleString('en')}) at ${f.where}`,
  );
  const report = resolve('.test-logs/limits.txt');
  mkdirSync(dirname(report), { recursive: true });
  writeFileSync(report, `${lines.join('\n')}\n`);
});

describe('AWS limits on the synthesized stack', () => {
  it('every template: at most 500 resources, 200 parameters, 200 outputs and 1 MB', () => {
    const measure = (count: (t: Json) => number) => templates.map(([name, t]) => ({ value: count(t), where: name }));
    expect(
      record(
        'resources per template',
        measure((t) => resourcesOf(t).length),
        500,
      ),
    ).toBeLessThanOrEqual(500);
    expect(
      record(
        'parameters per template',
        measure((t) => Object.keys(t.Parameters ?? {}).length),
        200,
      ),
    ).toBeLessThanOrEqual(200);
    expect(
      record(
        'outputs per template',
        measure((t) => Object.keys(t.Outputs ?? {}).length),
        200,
      ),
    ).toBeLessThanOrEqual(200);
    expect(
      record(
        'template bytes',
        measure((t) => Buffer.byteLength(JSON.stringify(t))),
        1_000_000,
      ),
    ).toBeLessThanOrEqual(1_000_000);
  });

  it("every role: at most 10,240 characters of inline policy, minified, with its references' ARNs", () => {
    // A role's inline policies: its own `Policies`, and every AWS::IAM::Policy naming it (CDK's
    // DefaultPolicy). Both count towards the role's quota.
    const perRole = new Map<string, number>();
    const key = (template: string, ref: unknown) => `${template}/${JSON.stringify(ref)}`;
    for (const { template, id, r } of allResources) {
      if (r.Type === 'AWS::IAM::Role') {
        const own = (r.Properties?.Policies ?? []) as Json[];
        const size = own.reduce((n, p) => n + JSON.stringify(resolveValue(p.PolicyDocument)).length, 0);
        perRole.set(key(template, { Ref: id }), (perRole.get(key(template, { Ref: id })) ?? 0) + size);
      }
      if (r.Type === 'AWS::IAM::Policy') {
        const size = JSON.stringify(resolveValue(r.Properties.PolicyDocument)).length;
        for (const role of (r.Properties.Roles ?? []) as unknown[]) {
          perRole.set(key(template, role), (perRole.get(key(template, role)) ?? 0) + size);
        }
      }
    }
    expect(perRole.size).toBeGreaterThan(100);
    const measured = [...perRole].map(([where, value]) => ({ value, where }));
    expect(record('inline policy characters per role', measured, 10_240)).toBeLessThanOrEqual(10_240);
  });

  it('every function: at most 4 KB of environment, names and values', () => {
    const measured = allResources
      .filter(({ r }) => r.Type === 'AWS::Lambda::Function')
      .map(({ template, id, r }) => {
        const variables = (resolveValue(r.Properties.Environment?.Variables ?? {}) ?? {}) as Record<string, string>;
        const bytes = Object.entries(variables).reduce(
          (n, [name, value]) => n + Buffer.byteLength(name) + Buffer.byteLength(String(value)),
          0,
        );
        return { value: bytes, where: `${template}/${id}` };
      });
    expect(measured.length).toBeGreaterThan(150);
    expect(record('environment bytes per function', measured, 4096)).toBeLessThanOrEqual(4096);
  });

  it('the REST API: at most 300 resources (path parts)', () => {
    const count = allResources.filter(({ r }) => r.Type === 'AWS::ApiGateway::Resource').length;
    expect(record('resources of the REST API', [{ value: count, where: 'Api' }], 300)).toBeLessThanOrEqual(300);
  });

  it('every event bus: at most 300 rules', () => {
    const perBus = new Map<string, number>();
    for (const { r } of allResources) {
      if (r.Type !== 'AWS::Events::Rule') continue;
      // No EventBusName is the account's default bus (the schedules, and the workers' patterns on it).
      const bus = r.Properties.EventBusName ? JSON.stringify(r.Properties.EventBusName) : 'default';
      perBus.set(bus, (perBus.get(bus) ?? 0) + 1);
    }
    const measured = [...perBus].map(([where, value]) => ({ value, where }));
    expect(measured.length).toBeGreaterThan(0);
    expect(record('rules per event bus', measured, 300)).toBeLessThanOrEqual(300);
  });

  it("the account's 1,000 IAM roles hold three stages (dev, staging, prod)", () => {
    const roles = allResources.filter(({ r }) => r.Type === 'AWS::IAM::Role').length;
    expect(roles).toBeGreaterThan(100);
    expect(
      record('IAM roles for three stages', [{ value: 3 * roles, where: 'one account' }], 1000),
    ).toBeLessThanOrEqual(1000);
  });
});
