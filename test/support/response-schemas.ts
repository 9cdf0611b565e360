/**
 * Every response the end-to-end suite receives is checked against the response schema that
 * `/openapi.json` documents for its operation and status (Ajv 2020-12 with formats), so a client
 * generated from the document would accept it. A status the operation does not document, or a
 * body outside its schema, fails the test that received it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule.default;
const DOCUMENT_ID = 'https://gatehouse.local/openapi.json';

interface Operation {
  template: string;
  pattern: RegExp;
  params: number;
  method: string;
  responses: Record<string, unknown>;
}

interface Checker {
  operations: Operation[];
  ajv: Ajv2020;
  compiled: Map<string, ValidateFunction | null>;
  document: Record<string, unknown>;
}

const checkers = new Map<string, Promise<Checker>>();

async function load(base: string): Promise<Checker> {
  const document = (await (await fetch(new URL('/openapi.json', base))).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
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
  // A literal segment wins over a parameter (/events/stream is not /events/{event_id}).
  operations.sort((a, b) => a.params - b.params);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  return { operations, ajv, compiled: new Map(), document: document };
}

const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A `$ref` of the document, followed. */
function deref(document: Record<string, unknown>, value: unknown): { value: unknown; path: string | undefined } {
  const ref = (value as { $ref?: string } | undefined)?.$ref;
  if (!ref) return { value, path: undefined };
  const path = ref.replace(/^#\//, '');
  let at: unknown = document;
  for (const segment of path.split('/'))
    at = (at as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  return { value: at, path };
}

/**
 * Problems of one response (empty when it matches). `path` is the URL path the request went to;
 * paths the document does not know (an unknown route's 404) are not checked.
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
    checker = load(base);
    checkers.set(base, checker);
  }
  const { operations, ajv, compiled, document } = await checker;
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
  const key = `${method} ${op.template} ${status}`;
  const declared = Object.keys(
    (deref(document, documented).value as { content?: Record<string, unknown> }).content ?? {},
  ).map(mediaType);
  if (declared.length > 0 && contentType && !declared.includes(mediaType(contentType)))
    return [
      `${method} ${op.template} ${status} answered ${contentType}, which it does not document (documented: ${declared.join(', ')})`,
    ];
  let validate = compiled.get(key);
  if (validate === undefined) {
    const response = deref(document, documented);
    const content = (response.value as { content?: Record<string, { schema?: unknown }> }).content ?? {};
    const json = Object.keys(content).find((t) => t.includes('json'));
    if (!json || !content[json]?.schema) {
      validate = null;
    } else {
      const base = response.path ?? pointer('paths', op.template, method.toLowerCase(), 'responses', String(status));
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${base}/${pointer('content', json, 'schema')}` });
    }
    compiled.set(key, validate);
  }
  if (!validate || !contentType.includes('json')) return [];
  if (validate(body)) return [];
  return (validate.errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `${method} ${op.template} ${status}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`,
    );
}

/** A content type without its parameters, lower case: `text/css; charset=utf-8` is `text/css`. */
const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();
