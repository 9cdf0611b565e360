/**
 * The validators a bundle carries (lib/validators.ts): standalone code with the unions' branch
 * labels beside it, not the schemas. Installed as a bundle installs them, they refuse a drone
 * integration with a Slack setting naming the branch, as the compiler used from source does.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeValidatorModules } from '../../lib/validators.js';
import { RequestValidationError } from '../../shared/http/errors.js';
import { requestValidators } from '../../shared/http/validation.js';
import { routeById } from '../../shared/routes/index.js';

// Inside the project, so the generated code finds Ajv's runtime as a bundle's build does.
mkdirSync(join(process.cwd(), '.build'), { recursive: true });
const dir = mkdtempSync(join(process.cwd(), '.build', 'validators-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('standalone validators', () => {
  it("name the union branch of a refused field, carrying labels and not the route's schemas", async () => {
    const route = routeById('integrations.create');
    const registry = join(process.cwd(), 'shared/http/compiled-validators.ts');
    const installer = writeValidatorModules(route, dir, registry);
    await import(pathToFileURL(installer).href);
    const request = {
      event: {
        pathParameters: {},
        queryStringParameters: {},
        body: {
          name: 'Dock',
          kind: 'drone',
          config: { url: 'https://dock.example/api', webhook_url: 'https://hooks.example/x' },
        },
      },
      context: {},
    };
    const issues = await (async () => {
      try {
        for (const v of requestValidators(route)) await v.before?.(request as never);
        return null;
      } catch (err) {
        if (err instanceof RequestValidationError) return err.issues;
        throw err;
      }
    })();
    expect(issues).toContainEqual({
      loc: ['body', 'config', 'webhook_url'],
      msg: 'unknown field for `kind` `drone`',
      type: 'extra_forbidden',
    });
  });

  it("carry the schemas' checks without their words: a field named `description` is still checked", async () => {
    // Descriptions are for the OpenAPI document; standalone code kept every word of a schema it
    // refers to (an enum's values), in every bundle.
    writeValidatorModules(
      routeById('watchlist.alerts'),
      dir,
      join(process.cwd(), 'shared/http/compiled-validators.ts'),
    );
    const params = readFileSync(join(dir, 'watchlist.alerts.params.mjs'), 'utf8');
    expect(params).not.toContain('"description"');
    expect(params).toContain('"vessel"');

    const route = routeById('assets.create');
    await import(
      pathToFileURL(writeValidatorModules(route, dir, join(process.cwd(), 'shared/http/compiled-validators.ts'))).href
    );
    const request = {
      event: { pathParameters: {}, queryStringParameters: {}, body: { name: 'Gate', type: 'camera', description: 7 } },
      context: {},
    };
    let issues: unknown[] = [];
    try {
      for (const v of requestValidators(route)) await v.before?.(request as never);
    } catch (err) {
      if (!(err instanceof RequestValidationError)) throw err;
      issues = err.issues;
    }
    expect(issues).toContainEqual(expect.objectContaining({ loc: ['body', 'description'], type: 'type' }));
  });
});
