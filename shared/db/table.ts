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
  indexes: [
    { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    { name: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
  ],
} as const;

export type IndexName = (typeof TABLE_KEYS.indexes)[number]['name'];
