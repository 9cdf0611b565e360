/** Sealed secrets: the local stand-in for KMS binds each value to its context, and checks grants. */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalSecretBox, localSecretKey } from '../../shared/local/secret-box.js';
import { runAs } from '../../shared/local/iam-check.js';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-secret-box-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('LocalSecretBox', () => {
  const file = join(dir, 'secrets.key');
  const box = new LocalSecretBox(localSecretKey(file));
  const context = { tenant_id: 't-1', purpose: 'webhook:w-1' };

  it('keeps its key in an owner-only file, the same on the next start', () => {
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(localSecretKey(file).equals(localSecretKey(file))).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toContain('whsec_');
  });

  it('opens what it sealed, only under the same context and unaltered', async () => {
    const sealed = await box.seal('whsec_abc', context);
    expect(sealed).toMatch(/^local:v1:/);
    expect(sealed).not.toContain('abc');
    expect(await box.open(sealed, { purpose: 'webhook:w-1', tenant_id: 't-1' })).toBe('whsec_abc');
    await expect(box.open(sealed, { tenant_id: 't-2', purpose: 'webhook:w-1' })).rejects.toThrow();
    const raw = Buffer.from(sealed.slice('local:v1:'.length), 'base64');
    raw[raw.length - 1]! ^= 1;
    await expect(box.open(`local:v1:${raw.toString('base64')}`, context)).rejects.toThrow();
    expect(await box.seal('whsec_abc', context)).not.toBe(sealed);
  });

  it('is refused to a function whose grants do not name the secrets key, as KMS would be', async () => {
    await expect(runAs('probe', { table: 'write' }, [], () => box.seal('x', context))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    const sealed = await runAs('probe', { secrets: 'seal' }, [], () => box.seal('x', context));
    await expect(runAs('probe', { secrets: 'seal' }, [], () => box.open(sealed, context))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    expect(await runAs('probe', { secrets: 'open' }, [], () => box.open(sealed, context))).toBe('x');
  });
});
