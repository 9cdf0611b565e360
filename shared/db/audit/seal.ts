/**
 * Every audit entry is sealed as it is written: an HMAC (SHA-256) of its canonical form under a key
 * the table's writers cannot read, so an entry edited straight in the table is evident at once,
 * whatever its age, and not only once its hour is digested (shared/domain/audit/digest.ts).
 *
 * In AWS the key is an HMAC_SHA_256 KMS key (AUDIT_KEY_ID, lib/secrets.ts), called without the KMS client (kms-mac.ts, shared/kms-json.ts): its material never
 * leaves KMS, the functions that write audit entries may only ask KMS for a MAC (kms:GenerateMac) and
 * the verify route may only check one (kms:VerifyMac). Someone who can write the table (a console
 * user, a leaked credential) cannot make a MAC for what they wrote. Under `npm start` a key file of
 * the data directory stands in (shared/local/audit-mac.ts), outside the table as the secret box's.
 *
 * The canonical form is one SHA-256 per sealed field (the key, PK and SK, then every field the API
 * answers with, tenant included), so the verifier names the fields that no longer match. The MAC
 * covers `log_id` and the hash of those field hashes of every entry written in one transaction:
 * one KMS call per transaction (per SEAL_BATCH entries), not per entry. Each entry of a batch
 * keeps the batch's lines, so each is checked alone (and a removed member of a batch is named).
 *
 * The seal is written in the transaction that writes the entry: the db layer seals the audit
 * items of a transaction before sending it (shared/db/transact.ts, BEFORE_WRITE), so no caller can
 * write an entry unsealed.
 */
import { createHash } from 'node:crypto';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '../../config.js';
import { portOf, setPort } from '../../runtime-ports.js';
import { KmsJson } from '../../kms-json.js';
import { KmsAuditMac, type AuditMac } from './kms-mac.js';

export type { AuditMac } from './kms-mac.js';

let kms: AuditMac | undefined;

/** Where the program is composed: the MAC to use instead of KMS (shared/runtime-ports.ts). */
export function useAuditMac(mac: AuditMac | undefined): void {
  setPort('auditMac', mac);
}

export function auditMac(): AuditMac {
  const composed = portOf<AuditMac>('auditMac');
  if (composed) return composed;
  if (!kms) {
    if (!config.auditKeyId) throw new Error('AUDIT_KEY_ID is not set: no key to seal audit entries with');
    kms = new KmsAuditMac(new KmsJson({ region: config.region }), config.auditKeyId);
  }
  return kms;
}

/** What an entry's item keeps besides its fields (never answered by the API). */
export interface AuditSeal {
  v: 1;
  /** SHA-256 (96 bits, base64url) of each of SEALED_FIELDS, in that order. */
  fields: string;
  /** The HMAC, base64. */
  mac: string;
  /** The lines MAC'd together when the transaction wrote more than one entry (this entry's among them). */
  batch?: string[];
}

/** The fields of an entry, as the API answers them (AuditEntry, entries.ts). */
export const AUDIT_FIELDS = [
  'log_id',
  'tenant_id',
  'action',
  'resource_type',
  'resource_id',
  'user_id',
  'actor_type',
  'api_key_id',
  'tool',
  'timestamp',
  'request_id',
  'source_ip',
  'changes',
] as const;

/** What the seal covers: the item's key, then every field an entry answers with. */
export const SEALED_FIELDS = ['PK', 'SK', ...AUDIT_FIELDS] as const;

/**
 * Entries MAC'd by one call at most. Each entry of a batch keeps the batch's lines (~60 bytes
 * each), so the bound keeps the seal small (~900 bytes) as well as the message under KMS's 4,096.
 */
export const SEAL_BATCH = 10;
/** Of each field's SHA-256, 96 bits (base64url): they only name the fields; the MAC covers their hash. */
const FIELD_HASH_CHARS = 16;
/** Of the SHA-256 of an entry's field hashes, 128 bits: what the MAC covers for the entry. */
const LINE_HASH_CHARS = 22;
const MESSAGE_HEADER = 'gatehouse.audit-seal.v1';

/** JSON with keys in order at every depth (undefined members left out): the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The field hashes of an item as the table holds it (a missing field hashes as null). */
export function sealedFieldHashes(item: Record<string, unknown>): string[] {
  return SEALED_FIELDS.map((f) => sha256(canonicalJson(item[f] ?? null)).slice(0, FIELD_HASH_CHARS));
}

/** One line of a MAC'd message: the entry's id and the hash of its field hashes. */
const lineOf = (logId: string, fields: string) => `${logId} ${sha256(fields).slice(0, LINE_HASH_CHARS)}`;

const messageOf = (lines: readonly string[]) => Buffer.from([MESSAGE_HEADER, ...lines].join('\n'), 'utf8');

/**
 * Seals audit items (the `Item` of their Put) in place, as the table will hold them (the document
 * client's conversion applied, so the verifier hashes the same values): one MAC per SEAL_BATCH items.
 */
export async function sealAuditItems(items: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += SEAL_BATCH) {
    const chunk = items.slice(i, i + SEAL_BATCH);
    const stored = chunk.map((item) =>
      unmarshall(marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false })),
    );
    const fields = stored.map((s) => sealedFieldHashes(s).join(''));
    const lines = chunk.map((item, j) => lineOf(String(item.log_id), fields[j]!)).sort();
    const mac = Buffer.from(await auditMac().generate(messageOf(lines))).toString('base64');
    chunk.forEach((item, j) => {
      const seal: AuditSeal = { v: 1, fields: fields[j]!, mac, ...(chunk.length > 1 ? { batch: lines } : {}) };
      item.seal = seal;
    });
  }
}

/** What checking one entry's seal found. */
export type SealCheck =
  | { kind: 'sealed' }
  /** Written before entries were sealed: its MAC cannot say anything. */
  | { kind: 'unsealed' }
  /** No longer what was sealed: the fields that differ, or `seal` when the seal itself was changed. */
  | { kind: 'edited'; fields: string[] };

/**
 * Checks the seals of items read from the table: one VerifyMac per distinct MAC (a batch is
 * checked once), `concurrency` at a time. Also returns the ids the batches name (entries written
 * in one transaction with those read: one that is gone since, inside the range read, was removed).
 */
export async function checkAuditSeals(
  items: readonly Record<string, unknown>[],
  concurrency = 8,
): Promise<{ checks: SealCheck[]; batchIds: Set<string> }> {
  const batchIds = new Set<string>();
  // What each sealed item's MAC must cover, and the MACs to ask about, each once.
  const asks = new Map<string, { lines: readonly string[]; mac: string; valid?: boolean }>();
  const plans = items.map((item) => {
    const seal = item.seal as AuditSeal | undefined;
    if (!seal) return null;
    for (const line of seal.batch ?? []) batchIds.add(line.split(' ')[0]!);
    const wellFormed =
      typeof seal.fields === 'string' &&
      seal.fields.length === SEALED_FIELDS.length * FIELD_HASH_CHARS &&
      typeof seal.mac === 'string';
    const line = wellFormed ? lineOf(String(item.log_id), seal.fields) : null;
    const lines = seal.batch ?? (line ? [line] : []);
    // The seal must name this entry as it was sealed; then the key must have made its MAC.
    if (!line || !lines.includes(line)) return { ask: null, seal };
    const key = `${seal.mac}\n${lines.join('\n')}`;
    if (!asks.has(key)) asks.set(key, { lines, mac: seal.mac });
    return { ask: key, seal };
  });
  const queue = [...asks.values()];
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let ask = queue.shift(); ask; ask = queue.shift())
        ask.valid = await auditMac().verify(messageOf(ask.lines), Buffer.from(ask.mac, 'base64'));
    }),
  );
  const checks = items.map((item, i): SealCheck => {
    const plan = plans[i];
    if (!plan) return { kind: 'unsealed' };
    if (!plan.ask || !asks.get(plan.ask)!.valid) return { kind: 'edited', fields: ['seal'] };
    // The seal is genuine, so are its field hashes: the fields whose hash differs now were changed.
    const now = sealedFieldHashes(item);
    const changed = SEALED_FIELDS.filter(
      (_, k) => now[k] !== plan.seal.fields.slice(k * FIELD_HASH_CHARS, (k + 1) * FIELD_HASH_CHARS),
    );
    return changed.length > 0 ? { kind: 'edited', fields: [...changed] } : { kind: 'sealed' };
  });
  return { checks, batchIds };
}
