/**
 * Numbers in the query are decimal integers, finite and in range; anything else is 422 with its
 * `loc`, on every list. (Before: `limit=Infinity` answered 6,175 events in one page,
 * `offset=1e309` answered `"offset": null`, and `limit=0x10` and `limit=%205` were taken as 16 and 5.)
 */
import { describe, expect, it } from 'vitest';
import { baseUrl, registerTenant } from '../support/api.js';

/** Sends the query exactly as written (URLSearchParams would re-encode it). */
async function getRaw(path: string, rawQuery: string, token: string) {
  const res = await fetch(`${baseUrl()}${path}?${rawQuery}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { detail: unknown } };
}

const BAD: [string, string][] = [
  ['limit', 'Infinity'],
  ['limit', '-Infinity'],
  ['limit', 'NaN'],
  ['limit', '0x10'],
  ['limit', '%205'],
  ['limit', '5%20'],
  ['limit', '5.0'],
  ['limit', '1e1'],
  ['limit', '+5'],
  ['limit', '05'],
  ['limit', '9007199254740993'],
  ['offset', '1e309'],
  ['offset', '0b1'],
];

describe('strict query numbers', () => {
  it('refuses every number that is not plain decimal, finite and in range, on every list', async () => {
    const org = await registerTenant('Numbers');
    const lists = [
      ['/api/v1/environments', `tenant_id=${org.tenantId}&`],
      ['/api/v1/events', ''],
      ['/api/v1/incidents', ''],
      ['/api/v1/users', ''],
    ] as const;
    for (const [path, prefix] of lists) {
      expect((await getRaw(path, `${prefix}limit=5&offset=0`, org.token)).status, path).toBe(200);
      for (const [name, value] of BAD) {
        const res = await getRaw(path, `${prefix}${name}=${value}`, org.token);
        expect(res.status, `${path} ${name}=${value}`).toBe(422);
        expect(res.body.detail, `${path} ${name}=${value}`).toEqual(
          expect.arrayContaining([expect.objectContaining({ loc: ['query', name] })]),
        );
      }
      // In range: a page reads offset + limit items, so the offset is bounded.
      expect((await getRaw(path, `${prefix}offset=10000`, org.token)).status, path).toBe(200);
      expect((await getRaw(path, `${prefix}offset=10001`, org.token)).status, path).toBe(422);
    }
  });
});
