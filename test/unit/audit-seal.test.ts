/**
 * The canonical form of an audit entry and its seal (shared/db/audit/seal.ts): what the MAC covers,
 * that it is checked entry by entry (a batch included), and what an edit is named as.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../shared/domain/audit/export.js';
import { auditLogResponse } from '../../shared/schemas/audit.js';
import {
  AUDIT_FIELDS,
  canonicalJson,
  checkAuditSeals,
  SEAL_BATCH,
  SEALED_FIELDS,
  sealAuditItems,
  sealedFieldHashes,
  useAuditMac,
} from '../../shared/db/audit/seal.js';
import { LocalAuditMac } from '../../shared/local/audit-mac.js';
import { runAs } from '../../shared/local/iam-check.js';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-audit-seal-'));
afterAll(() => {
  useAuditMac(undefined);
  rmSync(dir, { recursive: true, force: true });
});
let mac: LocalAuditMac;
beforeEach(() => {
  mac = new LocalAuditMac(join(dir, 'audit-mac.key'));
  useAuditMac(mac);
});

let n = 0;
/** An entry's item as auditPut writes it (index keys left out). */
function item(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const logId = `0190a000-0000-7000-8000-${String(++n).padStart(12, '0')}`;
  return {
    PK: 'T#t-1#AUDIT',
    SK: logId,
    entity: 'AUDIT',
    log_id: logId,
    tenant_id: 't-1',
    action: 'incident.created',
    resource_type: 'incident',
    resource_id: 'i-1',
    user_id: 'u-1',
    actor_type: 'user',
    api_key_id: null,
    timestamp: '2024-07-01T00:00:00.000Z',
    request_id: 'r-1',
    source_ip: '192.0.2.1',
    changes: { title: 'Fence cut', severity: 'high' },
    ...fields,
  };
}
/** The item as DynamoDB gives it back. */
const readBack = (i: Record<string, unknown>) => structuredClone(i);

describe('the fields of an entry', () => {
  // The seal's list is part of its format (v1: the order of the field hashes), so it is written
  // out, not derived; it must still name every field the API answers, as must the CSV export.
  const answered = Object.keys(auditLogResponse.properties).sort();

  it('the seal covers every field an entry answers with, and no other', () => {
    expect([...AUDIT_FIELDS].sort()).toEqual(answered);
    expect(new Set(AUDIT_FIELDS).size).toBe(AUDIT_FIELDS.length);
  });

  it('the CSV export has a column for every field an entry answers with', () => {
    expect([...CSV_COLUMNS].sort()).toEqual(answered);
  });
});

describe('the canonical form', () => {
  it('is the same JSON whatever the order of keys, at every depth, undefined members left out', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null }, e: undefined })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });

  it('hashes the key, the tenant and every field an entry answers with, one hash each', () => {
    expect(SEALED_FIELDS).toEqual(
      expect.arrayContaining(['PK', 'SK', 'tenant_id', 'log_id', 'action', 'source_ip', 'changes', 'tool']),
    );
    const base = item();
    const hashes = sealedFieldHashes(base);
    expect(hashes).toHaveLength(SEALED_FIELDS.length);
    for (const [i, field] of SEALED_FIELDS.entries()) {
      const changed = sealedFieldHashes({ ...base, [field]: 'something else' });
      expect(
        changed.filter((h, j) => h !== hashes[j]),
        field,
      ).toEqual([changed[i]]);
    }
    // Not what the API never shows (the entity marker, the index keys).
    expect(sealedFieldHashes({ ...base, entity: 'X', GSI1PK: 'y' })).toEqual(hashes);
    // A field the entry does not have hashes as null, as the API answers it.
    expect(sealedFieldHashes({ ...base, tool: undefined })).toEqual(sealedFieldHashes({ ...base, tool: null }));
  });
});

describe('sealing and checking', () => {
  it('one MAC for the entries of one transaction, each checked alone; an intact log is all sealed', async () => {
    const items = [item(), item(), item()];
    await sealAuditItems(items);
    expect(mac.calls.generate).toBe(1);
    expect(items.every((i) => (i.seal as { batch: string[] }).batch.length === 3)).toBe(true);
    const { checks } = await checkAuditSeals(items.map(readBack));
    expect(checks).toEqual([{ kind: 'sealed' }, { kind: 'sealed' }, { kind: 'sealed' }]);
    // The batch's MAC is checked once, for all three.
    expect(mac.calls.verify).toBe(1);
    // Alone, too.
    expect((await checkAuditSeals([readBack(items[1]!)])).checks).toEqual([{ kind: 'sealed' }]);
  });

  it(`seals more than ${SEAL_BATCH} entries with one MAC per ${SEAL_BATCH} (a KMS message is at most 4,096 bytes)`, async () => {
    const items = Array.from({ length: SEAL_BATCH + 1 }, () => item());
    await sealAuditItems(items);
    expect(mac.calls.generate).toBe(2);
    const message = ['gatehouse.audit-seal.v1', ...(items[0]!.seal as { batch: string[] }).batch].join('\n');
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(4096);
    expect((await checkAuditSeals(items)).checks.every((c) => c.kind === 'sealed')).toBe(true);
  });

  it('names the fields that no longer match; a moved item as its key', async () => {
    const [a, b] = [item(), item()];
    await sealAuditItems([a]);
    await sealAuditItems([b]);
    const { checks } = await checkAuditSeals([
      { ...readBack(a), source_ip: '203.0.113.9', changes: { title: 'Nothing' } },
      { ...readBack(b), PK: 'T#t-2#AUDIT' },
    ]);
    expect(checks).toEqual([
      { kind: 'edited', fields: ['source_ip', 'changes'] },
      { kind: 'edited', fields: ['PK'] },
    ]);
  });

  it('an altered seal, or one made under another key, is the seal changed', async () => {
    const [a, b] = [item(), item()];
    await sealAuditItems([a]);
    useAuditMac(new LocalAuditMac(join(dir, 'other.key')));
    await sealAuditItems([b]);
    useAuditMac(mac);
    const forged = readBack(a);
    const seal = forged.seal as { fields: string };
    seal.fields = `AAAA${seal.fields.slice(4)}`;
    const { checks } = await checkAuditSeals([forged, readBack(b), { ...readBack(a), seal: { v: 1 } }]);
    expect(checks).toEqual([
      { kind: 'edited', fields: ['seal'] },
      { kind: 'edited', fields: ['seal'] },
      { kind: 'edited', fields: ['seal'] },
    ]);
  });

  it('an entry without a seal is unsealed (written before sealing), and batches name their members', async () => {
    const batch = [item(), item()];
    await sealAuditItems(batch);
    const { checks, batchIds } = await checkAuditSeals([item(), readBack(batch[0]!)]);
    expect(checks).toEqual([{ kind: 'unsealed' }, { kind: 'sealed' }]);
    expect([...batchIds].sort()).toEqual(batch.map((i) => i.log_id).sort());
  });

  it('the local key checks the grants as KMS checks the role: a reader may not make a MAC', async () => {
    await expect(runAs('auditLogs.list', { table: 'read' }, [], () => sealAuditItems([item()]))).rejects.toThrow(
      /kms:GenerateMac/,
    );
    // Writing the table is not enough: a function seals only with `grants.audit` declared.
    await expect(runAs('incidents.create', { table: 'write' }, [], () => sealAuditItems([item()]))).rejects.toThrow(
      /kms:GenerateMac/,
    );
    await expect(
      runAs('incidents.create', { audit: 'seal', table: 'write' }, [], () => sealAuditItems([item()])),
    ).resolves.toBe(undefined);
    const sealed = item();
    await sealAuditItems([sealed]);
    await expect(
      runAs('incidents.create', { audit: 'seal', table: 'write' }, [], () => checkAuditSeals([sealed])),
    ).rejects.toThrow(/kms:VerifyMac/);
    await expect(
      runAs('auditLogs.verify', { table: 'read', audit: 'verify' }, [], () => checkAuditSeals([sealed])),
    ).resolves.toMatchObject({ checks: [{ kind: 'sealed' }] });
  });
});
