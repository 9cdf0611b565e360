/**
 * Every response the end-to-end suite receives is checked against the response schema that
 * `/openapi.json` documents for its operation and status (Ajv 2020-12 with formats), so a client
 * generated from the document would accept it. A status the operation does not document, or a
 * body outside its schema, fails the test that received it.
 *
 * Each test file runs in its own process, and compiling the schemas it met with Ajv took each one
 * up to a second or more. So they are compiled once per document: every JSON response schema of
 * the document becomes standalone code (response-validators.ts), in files under .build named by
 * the document's hash, which the first process that needs them writes and every other one loads.
 */
import { fileURLToPath } from 'node:url';
import { responseValidators } from './response-validators.js';

const DOCUMENT_ID = 'https://gatehouse.local/openapi.json';

/** Where the generated validators are kept, a directory per document (.build is not committed). */
const VALIDATORS_DIR = fileURLToPath(new URL('../../.build/response-validators/', import.meta.url));

interface OpenApiLike {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
}

interface Operation {
  template: string;
  pattern: RegExp;
  params: number;
  method: string;
  responses: Record<string, unknown>;
}

/** The checks of one document: `problems` of one response (empty when it matches). */
export interface ResponseChecker {
  problems(method: string, path: string, status: number, contentType: string, body: unknown): string[];
}

/** The document's operations, a literal segment before a parameter (/events/stream is not /events/{event_id}). */
function operationsOf(document: OpenApiLike): Operation[] {
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, op] of Object.entries(methods)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      operations.push({
        template,
        pattern,
        params: (template.match(/\{/g) ?? []).length,
        method: method.toUpperCase(),
        responses: op.responses,
      });
    }
  }
  operations.sort((a, b) => a.params - b.params);
  return operations;
}

const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A `$ref` of the document, followed. */
function deref(document: object, value: unknown): { value: unknown; path: string | undefined } {
  const ref = (value as { $ref?: string } | undefined)?.$ref;
  if (!ref) return { value, path: undefined };
  const path = ref.replace(/^#\//, '');
  let at: unknown = document;
  for (const segment of path.split('/'))
    at = (at as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  return { value: at, path };
}

/**
 * The reference (within the document, as `DOCUMENT_ID#/…`) of the JSON schema an operation
 * documents for one status, or null when that response has no JSON schema.
 */
function responseSchemaRef(document: object, op: Operation, status: string): string | null {
  const response = deref(document, op.responses[status]);
  const content = (response.value as { content?: Record<string, { schema?: unknown }> }).content ?? {};
  const json = Object.keys(content).find((t) => t.includes('json'));
  if (!json || !content[json]?.schema) return null;
  const base = response.path ?? pointer('paths', op.template, op.method.toLowerCase(), 'responses', status);
  return `${DOCUMENT_ID}#/${base}/${pointer('content', json, 'schema')}`;
}

/** The checks of one OpenAPI document; `dir` holds the compiled validators (tests name their own). */
export function responseChecker(document: OpenApiLike, dir = VALIDATORS_DIR): ResponseChecker {
  const operations = operationsOf(document);
  const validatorOf = responseValidators({
    document,
    documentId: DOCUMENT_ID,
    refs: () => operations.flatMap((op) => Object.keys(op.responses).map((s) => responseSchemaRef(document, op, s))),
    dir,
  });
  return {
    problems(method, path, status, contentType, body) {
      // The path's template (a literal segment wins over a parameter), then its operation for the
      // method; none (the server's own 405) is not an operation's answer.
      const template = operations.find((o) => o.pattern.test(path))?.template;
      const op = operations.find((o) => o.template === template && o.method === method);
      if (!op) return [];
      const documented = op.responses[String(status)];
      if (!documented)
        return [
          `${method} ${op.template} answered ${status}, which its operation does not document (documented: ${Object.keys(op.responses).join(', ')})`,
        ];
      const declared = Object.keys(
        (deref(document, documented).value as { content?: Record<string, unknown> }).content ?? {},
      ).map(mediaType);
      if (declared.length > 0 && contentType && !declared.includes(mediaType(contentType)))
        return [
          `${method} ${op.template} ${status} answered ${contentType}, which it does not document (documented: ${declared.join(', ')})`,
        ];
      const ref = responseSchemaRef(document, op, String(status));
      if (!ref || !contentType.includes('json')) return [];
      const validate = validatorOf(ref);
      if (validate(body)) return [];
      return (validate.errors ?? [])
        .slice(0, 5)
        .map(
          (e) =>
            `${method} ${op.template} ${status}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`,
        );
    },
  };
}

const checkers = new Map<string, Promise<ResponseChecker>>();

/**
 * Problems of one response (empty when it matches), against the document the server at `base`
 * serves. `path` is the URL path the request went to; paths the document does not know (an
 * unknown route's 404) are not checked.
 */
export async function responseProblems(
  base: string,
  method: string,
  path: string,
  status: number,
  contentType: string,
  body: unknown,
): Promise<string[]> {
  let checker = checkers.get(base);
  if (!checker) {
    checker = fetch(new URL('/openapi.json', base))
      .then((res) => res.json())
      .then((document) => responseChecker(document as OpenApiLike));
    checkers.set(base, checker);
  }
  return (await checker).problems(method, path, status, contentType, body);
}

/** A content type without its parameters, lower case: `text/css; charset=utf-8` is `text/css`. */
const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();
