/**
 * A metering proxy in front of DynamoDB Local, for the request-cost benchmark
 * (bin/bench-request-cost.ts). It forwards every call unchanged and counts, per operation, the
 * calls and the read and write request units DynamoDB on-demand would bill for them. DynamoDB
 * Local reports no consumed capacity, so the units are computed from the items themselves, by the
 * rules of the DynamoDB developer guide:
 *
 * - item size: attribute names and values in bytes (strings UTF-8, numbers ~1 byte per two
 *   significant digits plus 1, booleans and nulls 1, lists and maps 3 plus 1 per element);
 * - GetItem and BatchGetItem: each key 1 unit per 4 KB (at least 1, found or not), half for an
 *   eventually consistent read;
 * - Query and Scan: the items *evaluated* (before any filter), summed, 1 unit per 4 KB, half for
 *   an eventually consistent read; to know them the proxy runs the query again without its
 *   filter and projection (uncounted);
 * - writes: 1 unit per KB of the larger of the item before and after, and as much again for each
 *   index entry written or removed (the indexes project ALL); a key change of an index entry is a
 *   delete and a put; transactional writes count double. The item before and after is read by the
 *   proxy itself (uncounted). A keys-only index entry is written only when its keys change.
 *
 * It also keeps the size of every item written (`sizes`: the item as DynamoDB Local holds it after
 * the write). With `count: false` it does only that, for the test run's item-size check
 * (test/support/item-size-check.ts): every other call is forwarded as it streams, with no extra
 * call. An UpdateItem that asks for nothing back is sent asking for the item after it
 * (`ReturnValues: ALL_NEW`), and that item is taken out of the answer before it goes back, so the
 * caller gets what it asked for and the proxy no second call; only a transaction's Update, which
 * cannot ask, costs one extra read, made once the write has answered.
 *
 * Local tooling only: production code never imports it (test/unit/layers.test.ts).
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { TABLE_KEYS } from '../db/table.js';

type AttributeValue = Record<string, unknown>;
type Item = Record<string, AttributeValue>;

export interface OperationTally {
  calls: number;
  readUnits: number;
  writeUnits: number;
}

export type Tally = Record<string, OperationTally>;

export interface DynamoDbMeter {
  url: string;
  /** The size of every item written through the proxy since it started (not cleared by `reset`). */
  sizes: WrittenSizes;
  /** What was counted since the last reset. */
  snapshot(): Tally;
  /** Resolves once every call answered so far is counted (units are priced after the answer). */
  settle(): Promise<void>;
  reset(): void;
  /** Forward only: no extra reads to price writes and queries (for throughput runs). */
  passthrough: boolean;
  /**
   * Count calls and units (true unless the options say otherwise); false: only keep the sizes of
   * the items written, at the least cost (seeding, the test run's item-size check).
   */
  counting: boolean;
  /**
   * Calls `listener` after each write DynamoDB Local accepted, once its answer is on the way back:
   * the local stream poller reads at once instead of at its next turn (shared/local/stack.ts).
   */
  onWrite(listener: () => void): void;
  /**
   * The number of the last accepted write that named one of `partitions` (0: none); counted from
   * 1. Not kept for writes made while `passthrough` is on.
   */
  lastWriteTo(partitions: readonly string[]): number;
  close(): Promise<void>;
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

function numberSize(n: string): number {
  const digits = n.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

export function valueSize(v: AttributeValue): number {
  const [type, value] = Object.entries(v)[0] ?? ['NULL', true];
  switch (type) {
    case 'S':
      return utf8(value as string);
    case 'N':
      return numberSize(value as string);
    case 'B':
      return Buffer.from(value as string, 'base64').length;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
      return (value as string[]).reduce((s, x) => s + utf8(x), 0);
    case 'NS':
      return (value as string[]).reduce((s, x) => s + numberSize(x), 0);
    case 'BS':
      return (value as string[]).reduce((s, x) => s + Buffer.from(x, 'base64').length, 0);
    case 'L':
      return 3 + (value as AttributeValue[]).reduce((s, x) => s + 1 + valueSize(x), 0);
    case 'M':
      return 3 + Object.entries(value as Item).reduce((s, [k, x]) => s + 1 + utf8(k) + valueSize(x), 0);
    default:
      return 0;
  }
}

export function itemSize(item: Item | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((s, [k, v]) => s + utf8(k) + valueSize(v), 0);
}

/** One item written, by its kind (`entity`, or its partition key's first part) and key. */
export interface WrittenItem {
  entity: string;
  key: string;
  bytes: number;
}

/** DynamoDB's bound is 400 KB; the service keeps its items far under it (docs/data-model.md). */
export const ITEM_SIZE_LIMIT = 64 * 1024;

/** The sizes of the items written: the largest, those over `limit`, and every size by entity. */
export class WrittenSizes {
  #largest: WrittenItem | undefined;
  readonly #over: WrittenItem[] = [];
  readonly #byEntity = new Map<string, number[]>();
  constructor(readonly limit = ITEM_SIZE_LIMIT) {}

  record(item: Item | undefined): void {
    if (!item) return;
    const bytes = itemSize(item);
    const text = (v: AttributeValue | undefined) => (typeof v?.S === 'string' ? v.S : v ? JSON.stringify(v) : '');
    const entity = text(item.entity) || text(item.PK).split('#')[0] || 'unknown';
    const written = { entity, key: `${text(item.PK)} ${text(item.SK)}`, bytes };
    let sizes = this.#byEntity.get(entity);
    if (!sizes) this.#byEntity.set(entity, (sizes = []));
    sizes.push(bytes);
    if (!this.#largest || bytes > this.#largest.bytes) this.#largest = written;
    // The first few over the bound are enough to name; the largest is kept apart.
    if (bytes > this.limit && this.#over.length < 20) this.#over.push(written);
  }

  largest(): WrittenItem | undefined {
    return this.#largest;
  }

  /** Items over `limit` (the first 20). */
  over(): WrittenItem[] {
    return [...this.#over];
  }

  /** Every size written of one entity, in bytes, in the order written. */
  of(entity: string): number[] {
    return [...(this.#byEntity.get(entity) ?? [])];
  }

  /** How many items were written. */
  count(): number {
    let n = 0;
    for (const sizes of this.#byEntity.values()) n += sizes.length;
    return n;
  }
}

/** The calls that change items (DeleteItem's only size is none: the size record skips it). */
export const WRITE_OPERATIONS: ReadonlySet<string> = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);

/** One item a write names: where, by which key, how, and the item itself when the request holds it. */
export interface WriteTarget {
  table: string;
  key: Item;
  change: 'put' | 'update' | 'delete';
  /** The whole item, for a put. */
  item?: Item;
  transactional: boolean;
}

const keyFromItem = (item: Item): Item => ({ PK: item.PK!, SK: item.SK! });

/**
 * Every item a write names: each it puts, updates or deletes, in a single call, a batch or a
 * transaction (a ConditionCheck changes nothing). The one reading of a write request that the
 * size record, the pricing of units and the numbering of writes by partition share.
 */
export function writeTargets(operation: string, input: Record<string, unknown>): WriteTarget[] {
  const table = input.TableName as string;
  const put = (t: string, item: Item, transactional: boolean): WriteTarget => ({
    table: t,
    key: keyFromItem(item),
    change: 'put',
    item,
    transactional,
  });
  if (operation === 'PutItem') return [put(table, input.Item as Item, false)];
  if (operation === 'UpdateItem' || operation === 'DeleteItem')
    return [
      { table, key: input.Key as Item, change: operation === 'UpdateItem' ? 'update' : 'delete', transactional: false },
    ];
  if (operation === 'BatchWriteItem')
    return Object.entries(
      input.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>,
    ).flatMap(([t, requests]) =>
      requests.map((r): WriteTarget =>
        r.PutRequest
          ? put(t, r.PutRequest.Item, false)
          : { table: t, key: r.DeleteRequest!.Key, change: 'delete', transactional: false },
      ),
    );
  if (operation === 'TransactWriteItems')
    return (input.TransactItems as Record<string, { TableName: string; Item?: Item; Key?: Item }>[]).flatMap(
      (t): WriteTarget[] => {
        const [kind, spec] = Object.entries(t)[0]!;
        if (kind === 'Put') return [put(spec.TableName, spec.Item!, true)];
        if (kind === 'Update' || kind === 'Delete')
          return [
            {
              table: spec.TableName,
              key: spec.Key!,
              change: kind === 'Update' ? 'update' : 'delete',
              transactional: true,
            },
          ];
        return [];
      },
    );
  return [];
}

/**
 * The path on the proxy that answers, for the partitions named (`?pk=...&pk=...`), the number of
 * the last write DynamoDB Local accepted that named one of them (`{"last": n}`, 0: none): how the
 * tenant-isolation suite's guard knows that a tenant's partitions did not change without reading
 * them back (test/isolation/snapshot.ts).
 */
export const WRITES_PATH = '/gatehouse/writes';

/**
 * The items a successful write stored, as far as its request holds them (`items`), and the keys of
 * those it changed in place (`updated`: an UpdateItem, a transaction's Update), whose item after the
 * write only DynamoDB knows.
 */
export function writtenBy(operation: string, input: Record<string, unknown>): { items: Item[]; updated: Item[] } {
  const targets = writeTargets(operation, input);
  return {
    items: targets.flatMap((t) => (t.item ? [t.item] : [])),
    updated: targets.filter((t) => t.change === 'update').map((t) => t.key),
  };
}

/**
 * An UpdateItem that asks for nothing back, as sent on asking for the whole item after it (the
 * size record's), or undefined: any other write, or an update that asks for something itself.
 */
export function askedForItem(operation: string, input: Record<string, unknown>): Record<string, unknown> | undefined {
  if (operation !== 'UpdateItem' || (input.ReturnValues !== undefined && input.ReturnValues !== 'NONE'))
    return undefined;
  return { ...input, ReturnValues: 'ALL_NEW' };
}

/**
 * DynamoDB's answer to an update sent by `askedForItem`, as the caller asked for it (no
 * `Attributes`), and the item it held; its length and checksum headers made for the new body.
 */
export function withoutItem(out: { status: number; headers: IncomingHttpHeaders; body: Buffer }): {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  item: Item | undefined;
} {
  const { Attributes: item, ...rest } = JSON.parse(out.body.toString('utf8') || '{}') as {
    Attributes?: Item;
    [field: string]: unknown;
  };
  const body = Buffer.from(JSON.stringify(rest));
  // The body is sent whole: its length, not DynamoDB Local's chunks.
  const { 'transfer-encoding': _chunked, ...kept } = out.headers;
  const headers: IncomingHttpHeaders = { ...kept, 'content-length': String(body.length) };
  if (headers['x-amz-crc32'] !== undefined) headers['x-amz-crc32'] = String(crc32(body));
  return { status: out.status, headers, body, item };
}

const writeUnitsOf = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
const readUnitsOf = (bytes: number, consistent: boolean) =>
  Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);

const keyOf = (item: Item | undefined, pk: string, sk: string) =>
  item?.[pk] && item[sk] ? JSON.stringify([item[pk], item[sk]]) : null;

/** Units of writing `after` over `before` (either may be absent), on the table and each index. */
export function writeCost(before: Item | undefined, after: Item | undefined): number {
  if (!before && !after) return 1;
  let units = writeUnitsOf(Math.max(itemSize(before), itemSize(after)));
  for (const index of TABLE_KEYS.indexes) {
    const was = keyOf(before, index.partitionKey, index.sortKey);
    const is = keyOf(after, index.partitionKey, index.sortKey);
    // An entry holds the item (ALL) or its keys only (KEYS_ONLY, rewritten only when they change).
    const entry = (item: Item | undefined) =>
      index.projection === 'ALL'
        ? itemSize(item)
        : itemSize(
            Object.fromEntries(
              Object.entries(item ?? {}).filter(([k]) => ['PK', 'SK', index.partitionKey, index.sortKey].includes(k)),
            ),
          );
    if (was && is && was === is) {
      if (index.projection === 'ALL' && JSON.stringify(before) !== JSON.stringify(after))
        units += writeUnitsOf(entry(after));
    } else {
      if (was) units += writeUnitsOf(entry(before));
      if (is) units += writeUnitsOf(entry(after));
    }
  }
  return units;
}

export interface MeterOptions {
  /**
   * Count calls and units (the default). False: only keep the sizes of the items written, at the
   * least cost (the test run's item-size check).
   */
  count?: boolean;
}

export async function startDynamoDbMeter(upstream: string, options: MeterOptions = {}): Promise<DynamoDbMeter> {
  const target = new URL(upstream);
  const sizes = new WrittenSizes();
  let tally: Tally = {};
  const pending = new Set<Promise<void>>();
  const writeListeners: (() => void)[] = [];
  /** Each partition's last accepted write, by number. */
  const lastWrite = new Map<string, number>();
  let writes = 0;
  /** An accepted write: numbered and kept by partition before its answer goes back. */
  const accepted = (targets: readonly WriteTarget[]) => {
    writes += 1;
    for (const t of targets) lastWrite.set(String(t.key.PK?.S), writes);
  };
  const wrote = () => {
    for (const listener of writeListeners) listener();
  };
  const add = (op: string, readUnits: number, writeUnits: number, calls = 1) => {
    const t = (tally[op] ??= { calls: 0, readUnits: 0, writeUnits: 0 });
    t.calls += calls;
    t.readUnits += readUnits;
    t.writeUnits += writeUnits;
  };

  function forward(
    headers: IncomingHttpHeaders,
    body: string,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: '/',
          method: 'POST',
          headers: { ...headers, host: target.host, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 500, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** An uncounted call of the proxy's own. */
  async function call(
    headers: IncomingHttpHeaders,
    operation: string,
    input: unknown,
  ): Promise<Record<string, unknown>> {
    const out = await forward({ ...headers, 'x-amz-target': `DynamoDB_20120810.${operation}` }, JSON.stringify(input));
    return JSON.parse(out.body.toString('utf8') || '{}') as Record<string, unknown>;
  }

  const getItem = async (headers: IncomingHttpHeaders, table: string, key: Item) =>
    (await call(headers, 'GetItem', { TableName: table, Key: key, ConsistentRead: true })).Item as Item | undefined;

  async function evaluatedBytes(
    headers: IncomingHttpHeaders,
    operation: string,
    input: Record<string, unknown>,
  ): Promise<number> {
    // Dropped: tsc does not count a property destructured beside a rest element as unused.
    const { FilterExpression, ProjectionExpression, Select, ...rest } = input;
    const names = rest.ExpressionAttributeNames as Record<string, string> | undefined;
    const values = rest.ExpressionAttributeValues as Record<string, unknown> | undefined;
    // Keep only the placeholders the key condition still uses.
    const kept = String(rest.KeyConditionExpression ?? '');
    const used = (map: Record<string, unknown> | undefined) =>
      map ? Object.fromEntries(Object.entries(map).filter(([k]) => kept.includes(k))) : undefined;
    const unfiltered = { ...rest, ExpressionAttributeNames: used(names), ExpressionAttributeValues: used(values) };
    if (!unfiltered.ExpressionAttributeNames || Object.keys(unfiltered.ExpressionAttributeNames).length === 0)
      delete unfiltered.ExpressionAttributeNames;
    if (!unfiltered.ExpressionAttributeValues || Object.keys(unfiltered.ExpressionAttributeValues).length === 0)
      delete unfiltered.ExpressionAttributeValues;
    const out = await call(headers, operation, unfiltered);
    return ((out.Items as Item[] | undefined) ?? []).reduce((s, i) => s + itemSize(i), 0);
  }

  /**
   * Sizes only: what a successful write stored. An update's item is `updated` when its answer held
   * it (askedForItem), else read back (uncounted).
   */
  async function recordWrite(
    headers: IncomingHttpHeaders,
    targets: readonly WriteTarget[],
    updated?: Item,
  ): Promise<void> {
    for (const t of targets) {
      if (t.item) sizes.record(t.item);
      else if (t.change === 'update') sizes.record(updated ?? (await getItem(headers, t.table, t.key)));
    }
  }

  const meter: DynamoDbMeter = {
    url: '',
    sizes,
    passthrough: false,
    counting: options.count ?? true,
    snapshot: () => structuredClone(tally),
    settle: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    reset: () => {
      tally = {};
    },
    onWrite: (listener) => void writeListeners.push(listener),
    lastWriteTo: (partitions) => Math.max(0, ...partitions.map((pk) => lastWrite.get(pk) ?? 0)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  /**
   * Reads a request's whole body, then `handle`s it; counted as pending until done (units are
   * priced and sizes kept after the answer); a failure of the proxy's own answers 502.
   */
  function buffered(
    req: IncomingMessage,
    res: ServerResponse,
    handle: (body: string, headers: IncomingHttpHeaders) => Promise<void>,
  ): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = { ...req.headers };
      delete headers['content-length'];
      const work = handle(Buffer.concat(chunks).toString('utf8'), headers).catch((err: unknown) => {
        if (!res.headersSent) {
          res.writeHead(502);
          res.end(String(err));
        }
      });
      pending.add(work);
      void work.finally(() => pending.delete(work));
    });
  }

  const server: Server = createServer((req, res) => {
    // Passing writes through unread, the proxy does not know their partitions: no answer then.
    if (req.method === 'GET' && req.url?.startsWith(`${WRITES_PATH}?`) && !meter.passthrough) {
      const partitions = new URL(req.url, 'http://proxy').searchParams.getAll('pk');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ last: meter.lastWriteTo(partitions) }));
      return;
    }
    const targetHeader = String(req.headers['x-amz-target'] ?? '');
    const [service, operation = 'unknown'] = targetHeader.split('.');
    const isWrite = service === 'DynamoDB_20120810' && WRITE_OPERATIONS.has(operation);
    if (!meter.passthrough && !meter.counting && isWrite) {
      buffered(req, res, async (body, headers) => {
        const input = JSON.parse(body || '{}') as Record<string, unknown>;
        const asked = askedForItem(operation, input);
        const out = await forward(headers, asked ? JSON.stringify(asked) : body);
        const ok = out.status < 400;
        const targets = ok ? writeTargets(operation, input) : [];
        if (ok) accepted(targets);
        const answer = ok && asked ? withoutItem(out) : { ...out, item: undefined };
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
        if (ok) {
          wrote();
          await recordWrite(headers, targets, answer.item);
        }
      });
      return;
    }
    if (meter.passthrough || !meter.counting) {
      // Forward only, streaming both ways: as little of the proxy's own work as can be.
      const upstreamRequest = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: target.host },
        },
        (upstreamResponse) => {
          const status = upstreamResponse.statusCode ?? 502;
          res.writeHead(status, upstreamResponse.headers);
          upstreamResponse.pipe(res);
          if (isWrite && status < 400) upstreamResponse.on('end', wrote);
        },
      );
      upstreamRequest.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502);
        res.end(String(err));
      });
      req.pipe(upstreamRequest);
      return;
    }
    buffered(req, res, async (body, headers) => {
      const metered = !meter.passthrough && service === 'DynamoDB_20120810';
      const input = metered ? (JSON.parse(body || '{}') as Record<string, unknown>) : {};

      // Writes: the items before, to price the change.
      const before = new Map<string, Item | undefined>();
      const writeKeys = metered && isWrite ? writeTargets(operation, input) : [];
      await Promise.all(
        writeKeys.map(async (w) => before.set(JSON.stringify(w.key), await getItem(headers, w.table, w.key))),
      );

      const out = await forward(headers, body);
      if (isWrite && out.status < 400) accepted(writeKeys);
      res.writeHead(out.status, out.headers);
      res.end(out.body);
      if (isWrite && out.status < 400) wrote();
      if (!metered) return;

      const result = JSON.parse(out.body.toString('utf8') || '{}') as Record<string, unknown>;
      const failed = out.status >= 400;
      let readUnits = 0;
      let writeUnits = 0;
      if (operation === 'GetItem') {
        readUnits = readUnitsOf(itemSize(result.Item as Item | undefined), input.ConsistentRead === true);
      } else if (operation === 'BatchGetItem') {
        for (const [table, spec] of Object.entries(
          input.RequestItems as Record<string, { Keys: Item[]; ConsistentRead?: boolean }>,
        )) {
          const found = (result.Responses as Record<string, Item[]> | undefined)?.[table] ?? [];
          const sizes = new Map(found.map((i) => [JSON.stringify([i.PK, i.SK]), itemSize(i)]));
          for (const key of spec.Keys)
            readUnits += readUnitsOf(sizes.get(JSON.stringify([key.PK, key.SK])) ?? 0, spec.ConsistentRead === true);
        }
      } else if (operation === 'Query' || operation === 'Scan') {
        const consistent = input.ConsistentRead === true && !input.IndexName;
        readUnits = readUnitsOf(await evaluatedBytes(headers, operation, input), consistent);
      } else if (operation === 'TransactGetItems') {
        for (const g of input.TransactItems as { Get: { TableName: string; Key: Item } }[]) {
          readUnits += 2 * readUnitsOf(itemSize(await getItem(headers, g.Get.TableName, g.Get.Key)), true);
        }
      } else if (writeKeys.length > 0) {
        for (const w of writeKeys) {
          const after = failed ? before.get(JSON.stringify(w.key)) : await getItem(headers, w.table, w.key);
          if (!failed) sizes.record(after);
          const units = failed ? writeUnitsOf(itemSize(after)) : writeCost(before.get(JSON.stringify(w.key)), after);
          writeUnits += w.transactional ? 2 * units : units;
        }
      }
      add(operation, readUnits, writeUnits);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  meter.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return meter;
}
