/** The DynamoDB document client, created once per container. */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';

const base = new DynamoDBClient({
  region: config.region,
  ...(config.endpoints.dynamodb ? { endpoint: config.endpoints.dynamodb } : {}),
});

export const db = DynamoDBDocumentClient.from(base, {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});

export const TABLE = config.tableName;

/** Whether the table answers; for /health. */
export async function pingTable(): Promise<void> {
  await db.send(new DescribeTableCommand({ TableName: TABLE }));
}
