/**
 * docs/spec-departures.md stays honest: every entry has the spec's words, what the service does,
 * why, what a client should do, where and its status, and every operation or tool it names
 * exists (a route id of the route table, or a name `tools/call` answers to).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolNamed } from '../../shared/mcp/tools.js';
import { ROUTES } from '../../shared/routes/index.js';

const text = readFileSync(new URL('../../docs/spec-departures.md', import.meta.url), 'utf8');
const entries = text
  .split(/^## /m)
  .slice(1)
  .map((body) => ({ heading: body.slice(0, body.indexOf('\n')), body }));
const FIELDS = ['Spec', 'Service', 'Why', 'Client', 'Where', 'Status'] as const;

/** An entry's fields: `- **Name**: text` or `- **Name** (section): text`, continued on indented lines. */
function fieldsOf(body: string): Map<string, { section: string | undefined; text: string }> {
  const fields = new Map<string, { section: string | undefined; text: string }>();
  let last: { section: string | undefined; text: string } | undefined;
  for (const line of body.split('\n')) {
    const start = /^- \*\*(\w+)\*\*(?: \(([^)]+)\))?:(.*)$/.exec(line);
    if (start) {
      last = { section: start[2], text: start[3]!.trim() };
      fields.set(start[1]!, last);
    } else if (last && line.startsWith('  ')) last.text = `${last.text} ${line.trim()}`.trim();
    else last = undefined;
  }
  return fields;
}

const routeIds = new Set(ROUTES.map((r) => r.id));

describe('docs/spec-departures.md', () => {
  it("numbers the audit's 18 departures and the one made since, in order", () => {
    expect(entries.map((e) => Number.parseInt(e.heading, 10))).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
  });

  it.each(entries.map((e) => [e.heading, e.body] as const))('%s: says each thing once', (_heading, body) => {
    const fields = fieldsOf(body);
    expect([...fields.keys()]).toEqual(FIELDS);
    for (const [name, { text }] of fields) expect(text, name).not.toBe('');
    const spec = fields.get('Spec')!;
    expect(spec.section, "the spec's section").toBeTruthy();
    expect(spec.text, "the spec's words, quoted").toMatch(/^"/);
    expect(fields.get('Status')!.text).toMatch(/^(aligned|kept)\b/);
  });

  it.each(entries.map((e) => [e.heading, e.body] as const))(
    '%s: names only operations and tools that exist',
    (_heading, body) => {
      const names = [...(fieldsOf(body).get('Where')?.text ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      expect(names.length).toBeGreaterThan(0);
      const unknown = names.filter((n) => !routeIds.has(n) && !toolNamed(n));
      expect(unknown, 'neither a route id nor an MCP tool').toEqual([]);
    },
  );
});
