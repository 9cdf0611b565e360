/**
 * Tamper evidence for the audit log, in two parts. Each entry is sealed as it is written: a MAC
 * under a key the table's writers cannot read (shared/db/audit/seal.ts), so an entry edited in the
 * table is named at once, whatever its age. And, in the manner of CloudTrail's digest files, every
 * hour of a tenant gets a digest with the hash of each entry of the hour and the hash of the
 * digest before, so an entry removed or slipped in afterwards, a digest changed, or a link of the
 * chain broken, is found by recomputing (`verifyAuditLog`). Hours without entries get a digest
 * too, so a gap in the chain is itself a finding.
 *
 * An hour is digested once it is over and SETTLE_MS more have passed (a change is committed
 * within its request's timeout, so no entry of the hour can still arrive). The scheduled worker
 * (functions/workers/audit-digests.ts) digests, per tenant, every hour its chain has not reached,
 * at most MAX_HOURS_PER_RUN a run.
 */
import { createHash } from 'node:crypto';
import {
  digestBefore,
  digestsBetween,
  getDigestHead,
  putDigest,
  type AuditDigest,
  auditEntriesBetween,
  canonicalJson as canonical,
  checkedAuditEntriesBetween,
  firstAuditEntry,
  type AuditEntry,
  type SealCheck,
} from '../../db/audit/index.js';
import { ConditionFailed, transactWrite } from '../../db/transact.js';
import { invalid } from '../../errors.js';
import { timeOfId } from '../../ids.js';
import { metrics } from '../../metrics.js';
import { listTenants } from '../../db/tenants.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';

export const HOUR_MS = 3_600_000;
/** After an hour ends, this long before it is digested. */
export const SETTLE_MS = 5 * 60_000;
/** Hours one run digests per tenant at most (a tenant's first run catches up over several). */
export const MAX_HOURS_PER_RUN = 200;
/** Entries an hour whose hashes are listed one by one; past this the hour is checked as a whole. */
export const MAX_LISTED_ENTRIES = 3000;
/** The longest range one verification reads. */
export const MAX_VERIFY_HOURS = 31 * 24;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** An entry's hash: over every field it answers with. */
export const entryHash = (entry: AuditEntry): string => sha256(canonical(entry));

const hourStartOf = (ms: number) => ms - (ms % HOUR_MS);
const iso = (ms: number) => new Date(ms).toISOString();

function digestOf(
  tenantId: string,
  hourStart: number,
  entries: AuditEntry[],
  previous: string | null,
  at: string,
): AuditDigest {
  const hashes = entries.map((e): [string, string] => [e.log_id, entryHash(e)]);
  const body = {
    tenant_id: tenantId,
    hour_start: iso(hourStart),
    entry_count: entries.length,
    entries_hash: sha256(hashes.map(([, h]) => h).join('')),
    previous_digest_hash: previous,
  };
  return {
    ...body,
    entries: hashes.length <= MAX_LISTED_ENTRIES ? hashes : [],
    digest_hash: sha256(canonical(body)),
    created_at: at,
  };
}

/** What a digest's own hash covers (its entry list is covered by `entries_hash`). */
const digestHashOf = (d: AuditDigest) =>
  sha256(
    canonical({
      tenant_id: d.tenant_id,
      hour_start: d.hour_start,
      entry_count: d.entry_count,
      entries_hash: d.entries_hash,
      previous_digest_hash: d.previous_digest_hash,
    }),
  );

/**
 * Digests the tenant's hours its chain has not reached, up to the last one settled at `nowMs`;
 * returns how many. A run that finds the head moved by another stops: that one goes on.
 */
export async function digestTenant(tenantId: TenantId, nowMs: number): Promise<number> {
  return (await digestHours(tenantId, nowMs)).made;
}

/**
 * `digestTenant`, at most `maxHours` hours, answering also the start of the oldest settled hour
 * still without a digest after it (null when the chain reached the last settled hour).
 */
async function digestHours(
  tenantId: TenantId,
  nowMs: number,
  maxHours = MAX_HOURS_PER_RUN,
): Promise<{ made: number; behindFrom: number | null }> {
  const lastSettled = hourStartOf(nowMs - SETTLE_MS) - HOUR_MS;
  let head = await getDigestHead(tenantId);
  let next: number;
  if (head) next = Date.parse(head.hour_start) + HOUR_MS;
  else {
    const first = await firstAuditEntry(tenantId);
    if (!first) return { made: 0, behindFrom: null };
    next = hourStartOf(timeOfId(first.log_id));
  }
  let made = 0;
  while (next <= lastSettled && made < maxHours) {
    const entries = await auditEntriesBetween(tenantId, next, next + HOUR_MS - 1);
    const digest = digestOf(tenantId, next, entries, head?.digest_hash ?? null, iso(nowMs));
    try {
      await transactWrite(putDigest(digest, head));
    } catch (err) {
      // Another run moved the head: it goes on from there.
      if (err instanceof ConditionFailed) return { made, behindFrom: null };
      throw err;
    }
    head = { hour_start: digest.hour_start, digest_hash: digest.digest_hash, version: (head?.version ?? 0) + 1 };
    next += HOUR_MS;
    made++;
  }
  return { made, behindFrom: next <= lastSettled ? next : null };
}

export type Finding =
  | { kind: 'entry_changed' | 'entry_missing' | 'entry_added'; hour_start: string; log_id: string }
  | { kind: 'hour_changed'; hour_start: string }
  | { kind: 'digest_changed' | 'chain_broken' | 'digest_missing'; hour_start: string };

/** An entry whose seal says it is not what was written. */
export interface EditedEntry {
  log_id: string;
  hour_start: string;
  /**
   * `fields_changed`: the seal is genuine and these `fields` differ from what it sealed (`key`:
   * the item was moved); `seal_changed`: the seal itself was altered (what changed cannot be told);
   * `seal_missing`: no seal, though it is newer than a sealed entry (the seal was removed);
   * `entry_removed`: gone, though an entry written in the same transaction names it.
   */
  kind: 'fields_changed' | 'seal_changed' | 'seal_missing' | 'entry_removed';
  fields: string[];
}

/** Edited entries listed in one answer at most (`entries_edited` counts them all). */
export const MAX_EDITED_LISTED = 100;

export interface Verification {
  valid: boolean;
  from: string;
  to: string;
  hours_checked: number;
  entries_checked: number;
  /** The first thing that does not match, in time order; null when everything does. */
  first_mismatch: Finding | null;
  /** Hours of the range after this one have no digest yet (null: none has). */
  digested_until: string | null;
  /** Entries whose seal was checked (every entry written since entries are sealed). */
  seals_checked: number;
  /** Entries written before entries were sealed: their seal cannot vouch for them (their hour's digest still does). */
  entries_unsealed: number;
  /** Entries that are not what was sealed, however old (all of them, though at most MAX_EDITED_LISTED listed). */
  entries_edited: number;
  /** The first MAX_EDITED_LISTED of them, oldest first. */
  edited_entries: EditedEntry[];
}

/** What the seals of the entries read say: the edited ones, oldest first, and the counts. */
function sealFindings(
  entries: readonly AuditEntry[],
  seals: readonly SealCheck[],
  batchIds: ReadonlySet<string>,
  fromMs: number,
  toMs: number,
): { edited: EditedEntry[]; checked: number; unsealed: number } {
  const edited: EditedEntry[] = [];
  const at = (logId: string) => iso(hourStartOf(timeOfId(logId)));
  let checked = 0;
  let unsealed = 0;
  // Entries are sealed since some entry: an unsealed one after the first sealed one lost its seal.
  const firstSealed = entries.find((_, i) => seals[i]!.kind !== 'unsealed')?.log_id;
  entries.forEach((entry, i) => {
    const seal = seals[i]!;
    if (seal.kind === 'unsealed') {
      if (firstSealed && entry.log_id > firstSealed)
        edited.push({ log_id: entry.log_id, hour_start: at(entry.log_id), kind: 'seal_missing', fields: [] });
      else unsealed++;
      return;
    }
    checked++;
    if (seal.kind === 'edited')
      edited.push(
        seal.fields[0] === 'seal'
          ? { log_id: entry.log_id, hour_start: at(entry.log_id), kind: 'seal_changed', fields: [] }
          : {
              log_id: entry.log_id,
              hour_start: at(entry.log_id),
              kind: 'fields_changed',
              fields: [...new Set(seal.fields.map((f) => (f === 'PK' || f === 'SK' ? 'key' : f)))],
            },
      );
  });
  const present = new Set(entries.map((e) => e.log_id));
  for (const id of batchIds) {
    const ms = timeOfId(id);
    if (!present.has(id) && ms >= fromMs && ms <= toMs)
      edited.push({ log_id: id, hour_start: at(id), kind: 'entry_removed', fields: [] });
  }
  edited.sort((a, b) => (a.log_id < b.log_id ? -1 : 1));
  return { edited, checked, unsealed };
}

/**
 * Checks the seal of every entry of the hours from `from` to `to` (whole hours; by default the 24
 * hours up to now) and names each edited one; recomputes the digests of those hours against the
 * entries now in the table and against each other, and reports the first mismatch.
 */
export async function verifyAuditLog(tenantId: TenantId, fromIso?: string, toIso?: string): Promise<Verification> {
  // Default: the 24 hours up to now.
  const toMs = toIso ? Date.parse(toIso) : Date.now();
  const fromMs = fromIso ? Date.parse(fromIso) : toMs - 24 * HOUR_MS;
  const from = hourStartOf(fromMs);
  const to = hourStartOf(toMs);
  if (to < from) throw invalid(['query', 'to'], 'must not be before from', 'value_error');
  if ((to - from) / HOUR_MS + 1 > MAX_VERIFY_HOURS)
    throw invalid(['query', 'to'], `at most ${MAX_VERIFY_HOURS / 24} days a verification`, 'value_error');
  const [digests, before, { entries, seals, batchIds }] = await Promise.all([
    digestsBetween(tenantId, iso(from), iso(to)),
    digestBefore(tenantId, iso(from)),
    checkedAuditEntriesBetween(tenantId, from, to + HOUR_MS - 1),
  ]);
  const byHour = new Map(digests.map((d) => [d.hour_start, d]));
  const lastDigested = digests.at(-1)?.hour_start ?? null;
  const sealed = sealFindings(entries, seals, batchIds, from, to + HOUR_MS - 1);
  const result = (first: Finding | null, hours: number): Verification => ({
    valid: first === null && sealed.edited.length === 0,
    from: iso(from),
    to: iso(to),
    hours_checked: hours,
    entries_checked: entries.length,
    first_mismatch: first,
    digested_until: lastDigested,
    seals_checked: sealed.checked,
    entries_unsealed: sealed.unsealed,
    entries_edited: sealed.edited.length,
    edited_entries: sealed.edited.slice(0, MAX_EDITED_LISTED),
  });

  let previous = before;
  let hours = 0;
  for (let hour = from; hour <= to; hour += HOUR_MS) {
    const start = iso(hour);
    const digest = byHour.get(start);
    // By the id's time, as the digest chose them (the key range of the hour).
    const ofHour = entries.filter((e) => hourStartOf(timeOfId(e.log_id)) === hour);
    if (!digest) {
      // Before the chain began, or not digested yet (the end of the range): fine. A hole inside
      // the chain is not.
      if (previous && lastDigested && start < lastDigested)
        return result({ kind: 'digest_missing', hour_start: start }, hours);
      continue;
    }
    hours++;
    if (digestHashOf(digest) !== digest.digest_hash)
      return result({ kind: 'digest_changed', hour_start: start }, hours);
    if (previous && digest.previous_digest_hash !== previous.digest_hash)
      return result({ kind: 'chain_broken', hour_start: start }, hours);
    // It names a digest before it that is not there: the hour before lost its digest.
    if (!previous && digest.previous_digest_hash !== null)
      return result({ kind: 'digest_missing', hour_start: iso(hour - HOUR_MS) }, hours);
    const now = new Map(ofHour.map((e) => [e.log_id, entryHash(e)]));
    if (digest.entries.length > 0 || digest.entry_count === 0) {
      const listed = new Map(digest.entries);
      // In id order, so the first finding is the earliest entry concerned.
      const ids = [...new Set([...listed.keys(), ...now.keys()])].sort();
      for (const id of ids) {
        if (!now.has(id)) return result({ kind: 'entry_missing', hour_start: start, log_id: id }, hours);
        if (!listed.has(id)) return result({ kind: 'entry_added', hour_start: start, log_id: id }, hours);
        if (listed.get(id) !== now.get(id))
          return result({ kind: 'entry_changed', hour_start: start, log_id: id }, hours);
      }
      // The list itself must be what the digest hash covers.
      if (sha256(digest.entries.map(([, h]) => h).join('')) !== digest.entries_hash)
        return result({ kind: 'digest_changed', hour_start: start }, hours);
    } else if (
      sha256(ofHour.map((e) => now.get(e.log_id)!).join('')) !== digest.entries_hash ||
      ofHour.length !== digest.entry_count
    ) {
      return result({ kind: 'hour_changed', hour_start: start }, hours);
    }
    previous = digest;
  }
  return result(null, hours);
}

export interface DigestRun {
  tenants: number;
  digests: number;
  failed: number;
}

/**
 * One run of the worker: every tenant's settled hours, at most `maxHours` a tenant, tenant by
 * tenant, until `deadline` (ms). A tenant that fails is logged and counted, and the others go on;
 * the next run resumes each chain.
 */
export async function digestAllTenants(
  deadline: number,
  onFailure: (tenantId: string, err: unknown) => void,
  maxHours = MAX_HOURS_PER_RUN,
): Promise<DigestRun> {
  const run: DigestRun = { tenants: 0, digests: 0, failed: 0 };
  let oldestBehind: number | null = null;
  for (let offset = 0; Date.now() < deadline; offset += 100) {
    const tenants = await listTenants({ limit: 100, offset });
    for (const tenant of tenants) {
      if (Date.now() >= deadline) break;
      run.tenants++;
      try {
        // Every tenant's log, by the platform: no request decided the tenant.
        const { made, behindFrom } = await digestHours(systemTenant(tenant.tenant_id), Date.now(), maxHours);
        run.digests += made;
        if (behindFrom !== null && (oldestBehind === null || behindFrom < oldestBehind)) oldestBehind = behindFrom;
      } catch (err) {
        run.failed++;
        onFailure(tenant.tenant_id, err);
      }
    }
    if (tenants.length < 100) break;
  }
  // How long ago the oldest hour left behind became due (its end, then settling); 0 when caught up.
  // A tenant that failed, or was not reached before the deadline, is not measured: the run's
  // failure shows the first, the next run the second.
  const dueAt = oldestBehind === null ? null : oldestBehind + HOUR_MS + SETTLE_MS;
  metrics.auditDigestLag(dueAt === null ? 0 : Math.max(0, Math.round((Date.now() - dueAt) / 1000)));
  return run;
}
