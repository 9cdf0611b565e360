/**
 * The partition key values a DynamoDB request names, as IAM's `dynamodb:LeadingKeys` sees them:
 * the table's partition key of every item a request reads or writes (Key, Item, each of a
 * transaction's or a batch's), and for a Query the partition key value of its key condition, the
 * index's own partition key for a Query on an index. Read by the choice of credentials
 * (shared/db/client.ts) and by the local IAM check (shared/local/iam-check.ts), so both see the
 * same keys. The input may be the document client's (plain strings) or marshalled (`{S: ...}`).
 */
import { eachTenantScope, tenantScope, type TenantScope } from '../tenant-scope.js';
import { isPlatformPartition, tenantOfPartition } from './keys.js';
import { TABLE_KEYS } from './table.js';

type Input = Record<string, unknown>;

const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof (value as { S?: unknown })?.S === 'string'
      ? (value as { S: string }).S
      : undefined;

/** The table's partition key of one item (a Key or an Item). */
const itemPartition = (item: unknown): string | undefined =>
  item && typeof item === 'object' ? stringOf((item as Input)[TABLE_KEYS.partitionKey]) : undefined;

/** The value `attribute = :value` names in a key condition (`#alias` resolved). */
function queryPartition(input: Input): string | undefined {
  const index = TABLE_KEYS.indexes.find((i) => i.name === input.IndexName);
  const attribute = index ? index.partitionKey : TABLE_KEYS.partitionKey;
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const condition = typeof input.KeyConditionExpression === 'string' ? input.KeyConditionExpression : '';
  for (const [, name, value] of condition.matchAll(/(#?[A-Za-z0-9_]+)\s*=\s*(:[A-Za-z0-9_]+)/g)) {
    if ((name!.startsWith('#') ? names[name!] : name) === attribute) return stringOf(values[value!]);
  }
  return undefined;
}

/** The keys of one entry of TransactItems (`{Put: {Item}}`, `{Update: {Key}}`, `{Get: {Key}}`...). */
const transactPartition = (entry: Input): string | undefined => {
  const body = Object.values(entry)[0] as Input | undefined;
  return itemPartition(body?.Key ?? body?.Item);
};

/** The keys of BatchGet's (`{Keys}`) or BatchWrite's (`[{PutRequest: {Item}}, {DeleteRequest: {Key}}]`) RequestItems. */
function batchPartitions(requestItems: unknown): (string | undefined)[] {
  return Object.values((requestItems ?? {}) as Record<string, unknown>).flatMap((request) =>
    Array.isArray(request)
      ? request.map((r: Input) => {
          const put = r.PutRequest as Input | undefined;
          const del = r.DeleteRequest as Input | undefined;
          return itemPartition(put?.Item ?? del?.Key);
        })
      : (((request as Input).Keys ?? []) as unknown[]).map(itemPartition),
  );
}

/**
 * The partition key values of a request; `null` for one of a command this does not know that
 * names items (a Scan names none: it reads every partition). Values it cannot read are `''`, which
 * no policy allows.
 */
export function requestPartitions(command: string, input: Input): string[] | null {
  const name = command.replace(/Command$/, '').replace(/Item$|Items$/, '');
  let found: (string | undefined)[];
  switch (name) {
    case 'Get':
    case 'Put':
    case 'Update':
    case 'Delete':
      found = [itemPartition(input.Key ?? input.Item)];
      break;
    case 'Query':
      found = [queryPartition(input)];
      break;
    case 'TransactWrite':
    case 'TransactGet':
      found = ((input.TransactItems ?? []) as Input[]).map(transactPartition);
      break;
    case 'BatchGet':
    case 'BatchWrite':
      found = batchPartitions(input.RequestItems);
      break;
    case 'DescribeTable':
      return [];
    default:
      return null;
  }
  return found.map((pk) => pk ?? '');
}

/**
 * The tenant scope whose credentials a table call runs with: none outside a scope, and none for a
 * call naming platform partitions only (shared/db/keys.ts PLATFORM_PARTITIONS), which runs with the
 * function's own role; every other call of a scope runs as its tenant, so a key of another tenant
 * is refused by IAM (and locally by shared/local/iam-check.ts, which asks this same function).
 */
export function tableCallScope(command: string, input: Input): TenantScope | undefined {
  const partitions = requestPartitions(command, input);
  if (partitions !== null && partitions.every(isPlatformPartition)) return undefined;
  const scope = tenantScope();
  if (scope) return scope;
  // Acting on several tenants (shared/tenant-scope.ts `enterEachTenant`): as the tenant the call
  // names first; a call that names another too is refused by that tenant's policy.
  const named = (partitions ?? []).map(tenantOfPartition).find((t) => t !== undefined);
  return named === undefined ? undefined : eachTenantScope(named);
}
