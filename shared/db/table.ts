/**
 * The single table's key schema, shared by the CDK stack and the local runtime so both create the
 * same table. See docs/data-model.md for what lives under which key.
 */
export const TABLE_KEYS = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds; DynamoDB deletes the item some time after. */
  ttlAttribute: 'expires_at',
  /**
   * What the table's stream records: the item as written, for the workers that publish new items
   * (shared/workers.ts).
   */
  streamViewType: 'NEW_IMAGE',
  /**
   * GSI1-3 project ALL: they serve whole items (lists by status, by environment...), so a query
   * never needs a second read. GSI4 projects keys only: it says which tenants stored events in
   * which minute (the live stream watching every tenant), and as an item's other attributes
   * change (the tenant's minute counts every request) nothing is written to it. GSI5 (sparse,
   * ALL) holds each tenant's events by store sequence: the live stream reads whole events from it
   * in one Query (shared/db/event-sequence.ts). Its partition key is the table's own `PK` (the
   * events' partition), so an event carries only its sort key: a typical event item stays under
   * 1 KB, one write unit a copy.
   */
  indexes: [
    { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK', projection: 'ALL' },
    { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', projection: 'ALL' },
    { name: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK', projection: 'ALL' },
    { name: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK', projection: 'KEYS_ONLY' },
    { name: 'GSI5', partitionKey: 'PK', sortKey: 'GSI5SK', projection: 'ALL' },
  ],
} as const;

export type IndexName = (typeof TABLE_KEYS.indexes)[number]['name'];
