/**
 * The floor of a function of this service: it builds the DynamoDB document client and sends one
 * GetCommand, nothing else. Bundled with the functions' settings, it is what every bundle is
 * measured against (test/support/bundles.ts, bin/bench-cold-start.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { id?: string }): Promise<unknown> =>
  (await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: String(event.id), SK: 'X' } }))).Item ??
  null;
