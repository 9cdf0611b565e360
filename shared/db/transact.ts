/** Transactions that say which of their conditions failed, so callers can answer 404 or 409. */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../errors.js';
import { db } from './client.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Thrown when the condition of item `index` of a transaction did not hold. */
export class ConditionFailed extends Error {
  constructor(readonly index: number) {
    super(`condition of transaction item ${index} failed`);
  }
}

export async function transactWrite(items: TransactItem[], clientRequestToken?: string): Promise<void> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: clientRequestToken }));
  } catch (err) {
    if (err instanceof TransactionCanceledException) {
      const index = (err.CancellationReasons ?? []).findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (index >= 0) throw new ConditionFailed(index);
    }
    throw err;
  }
}

/**
 * Read-modify-write with optimistic locking: when another writer changed the item between our
 * read and our write, read again and retry; after three tries, answer 409.
 */
export async function retryOnConcurrentChange<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; i < 3; i++) {
    try {
      return await attempt();
    } catch (err) {
      // Item 0 is the versioned write by convention.
      if (!(err instanceof ConditionFailed) || err.index !== 0) throw err;
    }
  }
  throw new ConflictError('The resource was changed by another request at the same time; try again');
}
