/**
 * The IP geography adapter as Lambda runs it: bundled by GatehouseFunction with the files and
 * settings of lib/ip-geo-files.ts. The four data files must sit flat next to index.mjs (the root of
 * the asset, which Lambda unpacks at /var/task), stay out of index.mjs itself, and be what the
 * bundle reads when GATEHOUSE_IP_DB_DIR names that directory, with no node_modules anywhere near.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatehouseFunction, PROJECT_ROOT } from '../../lib/function.js';
import { FunctionBundles } from '../../lib/function-bundles.js';
import { IP_GEO_PACKAGE_FILES } from '../../lib/ip-geo-files.js';
import { quietBundling } from '../../lib/quiet-bundling.js';
import { validation } from './synth-cache.js';

describe('a function package with the IP geography files', () => {
  let outdir: string;
  let assetDir: string;
  let environment: Record<string, string>;
  beforeAll(() => {
    // Outside the repository: the bundle must not find node_modules by walking up.
    outdir = mkdtempSync(join(tmpdir(), 'gatehouse-ip-geo-bundle-'));
    const { context } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
      context: Record<string, unknown>;
    };
    const app = new App({ outdir, context });
    // Validated as `cdk synth` does, once for a given template (./synth-cache.ts).
    Validations.of(app).addPlugins(validation);
    const stack = new Stack(app, 'Gatehouse-ip-geo');
    // The function's asset is staged (and the bundle built) as it is constructed.
    const bundles = new FunctionBundles([
      {
        id: 'ip-geo',
        label: 'ip-geo fixture',
        handlerFile: 'test/support/bundle-fixtures/ip-geo.ts',
        packageFiles: IP_GEO_PACKAGE_FILES.files,
      },
    ]);
    const fn = quietBundling(
      () =>
        new GatehouseFunction(stack, 'IpGeo', {
          code: bundles.code('ip-geo'),
          description: 'ip-geo fixture',
          role: new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') }),
          logGroup: new logs.LogGroup(stack, 'Logs'),
          environment: IP_GEO_PACKAGE_FILES.environment,
          timeout: Duration.seconds(10),
          memorySize: 512,
          logging: { level: 'info', sampleRate: 0 },
        }),
    );
    app.synth();
    const cfn = fn.node.defaultChild as lambda.CfnFunction;
    assetDir = join(outdir, `asset.${(cfn.code as { s3Key: string }).s3Key.replace(/\.zip$/, '')}`);
    environment = (stack.resolve(cfn.environment) as { variables: Record<string, string> }).variables;
  }, 120_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('holds the four data files flat next to index.mjs, and the settings that point there', () => {
    for (const file of IP_GEO_PACKAGE_FILES.files) {
      const packaged = join(assetDir, basename(file));
      expect(existsSync(packaged), file).toBe(true);
      expect(statSync(packaged).size, file).toBe(statSync(join(PROJECT_ROOT, 'node_modules', file)).size);
    }
    expect(environment).toMatchObject(IP_GEO_PACKAGE_FILES.environment);
    expect(environment.GATEHOUSE_IP_DB_DIR).toBe('/var/task');
    // The data is read at run time, never bundled: index.mjs stays small.
    expect(statSync(join(assetDir, 'index.mjs')).size).toBeLessThan(200 * 1024);
  });

  /** Runs the bundled handler in a fresh Node, as Lambda would, with the given settings. */
  function invoke(ip: string, env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
    const script = [
      `const { handler } = await import(${JSON.stringify(pathToFileURL(join(assetDir, 'index.mjs')).href)});`,
      `process.stdout.write(JSON.stringify(await handler({ ip: ${JSON.stringify(ip)} })));`,
    ].join('\n');
    return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: outdir,
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 60_000,
    });
  }

  it('answers from the packaged files when GATEHOUSE_IP_DB_DIR names the package directory', () => {
    // The package's directory stands in for /var/task.
    const run = invoke('8.8.8.8', { ...environment, GATEHOUSE_IP_DB_DIR: assetDir });
    expect(run.status, run.stderr.slice(0, 2000)).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      geo: { ip: '8.8.8.8', version: 4, scope: 'public', country: 'US', asn: 15169, as_org: 'Google LLC' },
      source: { asn: environment.GATEHOUSE_IP_DB_ASN_SOURCE, country: environment.GATEHOUSE_IP_DB_COUNTRY_SOURCE },
    });
    expect(environment.GATEHOUSE_IP_DB_ASN_SOURCE).toMatch(/^@ip-location-db\/asn@\d/);
  });

  it('says what is missing when the setting is not there', () => {
    const run = invoke('8.8.8.8', {});
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('GATEHOUSE_IP_DB_DIR is not set');
  });
});
