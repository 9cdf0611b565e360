/**
 * The checker every end-to-end answer goes through (test/support/response-schemas.ts), on the
 * document the service serves, without a server: it must fail a body outside its schema, an
 * undocumented status and an undocumented content type, or a passing suite proves nothing. Its
 * validators are compiled once per document into files (test/support/response-validators.ts):
 * a checker that finds them checks as strictly as the one that wrote them.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../shared/openapi/document.js';
import { ROUTES } from '../../shared/routes/index.js';
import { responseChecker, type ResponseChecker } from '../support/response-schemas.js';

// Under the repository (the generated code requires ajv's modules), in a directory of its own.
const BUILD = fileURLToPath(new URL('../../.build/', import.meta.url));
mkdirSync(BUILD, { recursive: true });
const dir = mkdtempSync(`${BUILD}response-validators-unit-`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const json = 'application/json';
const FILE =
  '/api/v1/environments/8b0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d/infrastructure/0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';
const removed = { file_id: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9', deleted: true, objects_removed: 2 };

function expectStrict(checker: ResponseChecker): void {
  expect(checker.problems('DELETE', FILE, 200, json, removed)).toEqual([]);
  // A body outside its schema: a wrong format, a missing property, a value off the enum.
  const badFormat = checker.problems('DELETE', FILE, 200, json, { ...removed, file_id: 'not-a-uuid' });
  expect(badFormat.join('\n')).toContain('/file_id must match format "uuid"');
  const { objects_removed: _, ...missing } = removed;
  expect(checker.problems('DELETE', FILE, 200, json, missing).join('\n')).toContain(
    "(body) must have required property 'objects_removed'",
  );
  expect(checker.problems('DELETE', FILE, 200, json, { ...removed, deleted: false }).join('\n')).toContain(
    '/deleted must be equal to one of the allowed values',
  );
  // A documented error through the document's shared responses and schemas ($ref).
  expect(checker.problems('DELETE', FILE, 404, json, { detail: 'Not found' })).toEqual([]);
  expect(checker.problems('DELETE', FILE, 404, json, { detail: 404 }).join('\n')).toContain('/detail must be string');
  // A status the operation does not document, and a content type its status does not.
  expect(checker.problems('DELETE', FILE, 418, json, { detail: 'teapot' }).join('\n')).toContain(
    'answered 418, which its operation does not document',
  );
  expect(checker.problems('DELETE', FILE, 200, 'text/html', '<p>').join('\n')).toContain(
    'answered text/html, which it does not document',
  );
  // No operation: a path the document does not know, a method its path does not have.
  expect(checker.problems('GET', '/api/v1/nowhere', 404, json, { detail: 'Not found' })).toEqual([]);
  expect(checker.problems('PUT', FILE, 405, json, { detail: 'Method Not Allowed' })).toEqual([]);
}

describe('response schema checks', () => {
  const document = buildOpenApiDocument(ROUTES, { version: '1.2.3' });

  it('fail what breaks the document, with the validators it compiles', () => {
    expectStrict(responseChecker(document, dir));
    // One directory for the document, of the validators of its schemas.
    const [generated, ...others] = readdirSync(dir);
    expect(others).toEqual([]);
    expect(readdirSync(`${dir}/${generated}`).length).toBeGreaterThan(100);
  });

  it('fail the same with the validators another process compiled, for the same schemas on another host', () => {
    const [generated] = readdirSync(dir);
    const written = statSync(`${dir}/${generated}`).ino;
    // Another version and host: the same schemas, so the same file.
    const served = buildOpenApiDocument(ROUTES, { version: '9.9.9', serverUrl: 'http://127.0.0.1:4000' });
    expectStrict(responseChecker(served, dir));
    // Read, not written again (a new directory is a new inode).
    expect(readdirSync(dir)).toEqual([generated]);
    expect(statSync(`${dir}/${generated}`).ino).toBe(written);
  });
});
