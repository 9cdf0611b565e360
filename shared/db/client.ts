/** The DynamoDB document client, created once per container. */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';
import { sdkClient } from '../runtime-ports.js';
import { chooseCredentialsPerCall } from '../tenant-scope.js';
import { tracedClient } from '../tracing.js';
import { tableCallScope } from './request-keys.js';

// Traced (shared/tracing.ts): the document client below shares this client's middleware stack.
const base = tracedClient(
  new DynamoDBClient({
    region: config.region,
    ...(config.endpoints.dynamodb ? { endpoint: config.endpoints.dynamodb } : {}),
  }),
);
// The SDK's logger step copies every input and output, filtered for secrets, for a logger we never
// give it (the default discards them): a cost on every call, largest on a 25-item batch write.
base.middlewareStack.remove('loggerMiddleware');
// A call on a tenant's data runs with that tenant's credentials, one naming only platform
// partitions with the function's role (shared/db/request-keys.ts decides; docs/architecture.md, 27).
chooseCredentialsPerCall(base, tableCallScope);

export const db = sdkClient(
  DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  }),
  'dynamodb',
);

export const TABLE = config.tableName;

/** Whether the table answers; for /health. */
export async function pingTable(): Promise<void> {
  await db.send(new DescribeTableCommand({ TableName: TABLE }));
}
