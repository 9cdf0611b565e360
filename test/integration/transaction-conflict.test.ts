/**
 * Two transactions writing one item at once (an environment's count, a tenant's zone revision)
 * make DynamoDB cancel one with `TransactionConflict`; nothing of it was written, so it is tried
 * again. DynamoDB Local runs transactions one at a time and never answers so: the conflict is
 * injected in front of the real client, and the writes land in DynamoDB Local.
 */
import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { db, TABLE } from '../../shared/db/client.js';
import { ConditionFailed, transactWrite } from '../../shared/db/transact.js';

const INJECTOR = 'inject-transaction-conflict';

/** The next `times` transactions are cancelled as conflicting, before they reach the table. */
function conflictNext(times: number, code = 'TransactionConflict') {
  let left = times;
  const seen = { transactions: 0 };
  db.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { TransactItems?: unknown[] };
      if (input.TransactItems) {
        seen.transactions++;
        if (left > 0) {
          left--;
          throw new TransactionCanceledException({
            message: 'Transaction cancelled',
            $metadata: {},
            CancellationReasons: input.TransactItems.map((_, i) => ({ Code: i === 0 ? code : 'None' })),
          });
        }
      }
      return next(args);
    },
    { step: 'initialize', name: INJECTOR },
  );
  return seen;
}

afterEach(() => {
  db.middlewareStack.remove(INJECTOR);
});

const put = (pk: string) => ({ Put: { TableName: TABLE, Item: { PK: pk, SK: 'CONFLICT-TEST', n: 1 } } });
const stored = async (pk: string) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: { PK: pk, SK: 'CONFLICT-TEST' }, ConsistentRead: true })))
    .Item;

describe('transactions that collide', () => {
  it('are tried again and land once', async () => {
    const pk = `TEST#${randomUUID()}`;
    const seen = conflictNext(2);
    await transactWrite([put(pk)]);
    expect(seen.transactions).toBe(3);
    expect(await stored(pk)).toMatchObject({ n: 1 });
  });

  it('give up after a few tries, having written nothing', async () => {
    const pk = `TEST#${randomUUID()}`;
    const seen = conflictNext(10);
    await expect(transactWrite([put(pk)])).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(seen.transactions).toBe(4);
    expect(await stored(pk)).toBeUndefined();
  });

  it('a failed condition is not a conflict: answered at once, with its item', async () => {
    const pk = `TEST#${randomUUID()}`;
    const seen = conflictNext(1, 'ConditionalCheckFailed');
    const failed = await transactWrite([put(pk)]).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(ConditionFailed);
    expect((failed as ConditionFailed).index).toBe(0);
    expect(seen.transactions).toBe(1);
  });
});
