/**
 * The single table's keys: here the partitions' prefixes and the parts keys share, beside them
 * every item's key (shared/db/item-keys.ts; the vessels' in shared/db/vessels/keys.ts). Each
 * partition key of tenant data starts with `T#<tenant_id>`, so IAM (`dynamodb:LeadingKeys`) can
 * fence a tenant too. docs/data-model.md lists the access pattern behind each key.
 */

export const tenantPk = (tenantId: string) => `T#${tenantId}`;
/** The tenant a partition key value belongs to (`T#<tenant>` or `T#<tenant>#...`), if any. */
export const tenantOfPartition = (pk: string): string | undefined =>
  pk.startsWith('T#') ? pk.slice(2).split('#')[0] || undefined : undefined;
/** Rate-limit counters' partitions start with this (`keys.rateWindow`); IAM fences them by it. */
export const RATE_PK_PREFIX = 'RATE#';

/** The partition of one fibre sensor's telemetry batches. */
export const telemetryPk = (tenantId: string, sensorId: string) => `${tenantPk(tenantId)}#TEL#${sensorId}`;
/** GSI4 partitions of the minutes in which tenants stored events (`keys.tenantEventMinute`), by hour. */
export const EVENT_MINUTES_PK_PREFIX = 'EVENTMINUTES#';
/** A store sequence number as a sort key: zero-padded, so the string order is the number order. */
export const sequenceKey = (seq: number) => String(seq).padStart(12, '0');
/** The partition of the SLA timers (`keys.slaTimer`). */
export const SLA_TIMERS_PK = 'SLATIMERS';
/** The partition of the workflows' timers (`keys.workflowTimer`). */
export const WORKFLOW_TIMERS_PK = 'WFTIMERS';
export const TENANT_DIRECTORY_PK = 'TENANTS';
export const USER_PREFIX = 'USER#';
/** The threat feeds' records, shared by every tenant (shared/db/feed-records.ts). */
export const FEED_PK_PREFIX = 'FEED#';
/** GSI1 partition of the connectors every tenant configured, for the poller (shared/db/connectors.ts). */
export const CONNECTOR_DIRECTORY_PK = 'CONNECTORS';

/**
 * The partitions (of the table or of an index's partition key) that hold no tenant's data, as IAM
 * `StringLike` patterns: everything else starts with `T#<tenant_id>`. A call naming only these runs
 * with the function's own role; any other runs with its tenant's credentials (shared/db/client.ts),
 * whose policy allows `T#<tenant>` and `T#<tenant>#*` only, plus TENANT_SESSION_PLATFORM_PARTITIONS.
 * docs/architecture.md (27) says why each is platform-wide.
 */
export const PLATFORM_PARTITIONS = [
  `${RATE_PK_PREFIX}*`,
  'REGISTRATION#*',
  'PUBLICKEY#*',
  TENANT_DIRECTORY_PK,
  SLA_TIMERS_PK,
  WORKFLOW_TIMERS_PK,
  `${EVENT_MINUTES_PK_PREFIX}*`,
  `${FEED_PK_PREFIX}*`,
  CONNECTOR_DIRECTORY_PK,
] as const;

/**
 * The platform partitions a tenant's own transactions write together with its items, so its
 * credentials must reach them too (one call, one set of credentials): an incident's SLA timer and
 * a workflow's timers move in the transaction that changes them, and a public reporting key's
 * lookup item in the one that rotates it.
 */
export const TENANT_SESSION_PLATFORM_PARTITIONS = [SLA_TIMERS_PK, WORKFLOW_TIMERS_PK, 'PUBLICKEY#*'] as const;

/** IAM's `StringLike` pattern as a RegExp: `*` any run of characters, `?` any one; the rest literal. */
function likePattern(pattern: string): RegExp {
  let re = '^';
  for (const ch of pattern) re += ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${re}$`, 's');
}

/**
 * The patterns made so far: the policies name a few dozen, and the local IAM check asks on every
 * call of the test run (making each again was the local server's largest cost, 64 of its 700 CPU
 * seconds in a full `npm test`).
 */
const LIKE_PATTERNS = new Map<string, RegExp>();
/** Patterns of a tenant's session name its id: the map is emptied before it outgrows a long run's. */
const MAX_LIKE_PATTERNS = 2_000;

/** IAM's `StringLike`: `*` any run of characters, `?` any one; the rest literal. */
export function stringLike(pattern: string, value: string): boolean {
  let re = LIKE_PATTERNS.get(pattern);
  if (!re) {
    if (LIKE_PATTERNS.size >= MAX_LIKE_PATTERNS) LIKE_PATTERNS.clear();
    LIKE_PATTERNS.set(pattern, (re = likePattern(pattern)));
  }
  return re.test(value);
}

/**
 * Made once: every table call of a tenant scope asks (shared/db/request-keys.ts), and making the
 * nine patterns on each call cost 20 µs of it (bin/bench-tenant-wall.ts).
 */
const PLATFORM_PATTERNS = PLATFORM_PARTITIONS.map(likePattern);

/**
 * `items` in chunks of at most `size` (a batch call's limit), each of one owner (one tenant, or the
 * platform), the owners in the order first seen: a batch call runs with one set of credentials
 * (shared/db/request-keys.ts), which reach one owner.
 */
export function chunksByOwner<T>(items: readonly T[], pkOf: (item: T) => string, size: number): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const owner = tenantOfPartition(pkOf(item)) ?? '';
    const group = groups.get(owner);
    if (group) group.push(item);
    else groups.set(owner, [item]);
  }
  const chunks: T[][] = [];
  for (const group of groups.values())
    for (let i = 0; i < group.length; i += size) chunks.push(group.slice(i, i + size));
  return chunks;
}

/** `items` in groups of one owner each: `chunksByOwner` with no limit. */
export const byOwner = <T>(items: readonly T[], pkOf: (item: T) => string): T[][] =>
  chunksByOwner(items, pkOf, Infinity);

/** Whether a partition key value holds no tenant's data (PLATFORM_PARTITIONS). */
export const isPlatformPartition = (pk: string): boolean => PLATFORM_PATTERNS.some((p) => p.test(pk));
export const API_KEY_PREFIX = 'APIKEY#';
