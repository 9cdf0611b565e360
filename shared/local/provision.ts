/**
 * Creates what the CDK stack creates in AWS, on the local stand-ins, when it is missing: the single
 * table (keys, GSIs, TTL and the NEW_IMAGE stream from TABLE_KEYS), the files bucket, the user
 * pool and its app client.
 * Idempotent: a restart on persisted data finds everything again (cognito-local invents pool and
 * client ids, so they are remembered in `<dataDir>/local-stack.json`).
 */
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type CreateTableCommandInput,
  type GlobalSecondaryIndex,
  type KeySchemaElement,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { TABLE_KEYS } from '../db/table.js';
import { S3RVER_CREDENTIALS } from './s3-local.js';
import { PASSWORD_POLICY } from '../vocabulary/password-policy.js';

export const LOCAL_NAMES = {
  table: 'gatehouse-local',
  bucket: 'gatehouse-local-files',
  eventBus: 'gatehouse-local',
  userPool: 'gatehouse-local',
  userPoolClient: 'gatehouse-local-app',
} as const;

export interface ProvisionInput {
  region: string;
  dynamodbEndpoint: string;
  s3Endpoint: string;
  cognitoEndpoint: string;
  /** `<dataDir>/local-stack.json`. */
  stateFile: string;
}

export interface Provisioned {
  tableName: string;
  bucketName: string;
  userPoolId: string;
  userPoolClientId: string;
  /** What was created now rather than found. */
  created: { table: boolean; bucket: boolean; userPool: boolean };
  /** The table's stream, and whether it began now (a new table, or a stream just enabled). */
  tableStream: { arn: string; new: boolean };
}

interface SavedState {
  userPoolId?: string;
  userPoolClientId?: string;
}

// Local stand-ins accept any credentials except s3rver, which wants its own; one pair for all.
const credentials = S3RVER_CREDENTIALS;

export async function provision(input: ProvisionInput): Promise<Provisioned> {
  const dynamodb = new DynamoDBClient({ region: input.region, endpoint: input.dynamodbEndpoint, credentials });
  const s3 = new S3Client({
    region: input.region,
    endpoint: input.s3Endpoint,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const cognito = new CognitoIdentityProviderClient({
    region: input.region,
    endpoint: input.cognitoEndpoint,
    credentials,
  });
  try {
    const [{ created: table, stream }, bucket, pool] = await Promise.all([
      ensureTable(dynamodb, LOCAL_NAMES.table),
      ensureBucket(s3, LOCAL_NAMES.bucket),
      ensureUserPool(cognito, input.stateFile),
    ]);
    return {
      tableName: LOCAL_NAMES.table,
      bucketName: LOCAL_NAMES.bucket,
      userPoolId: pool.userPoolId,
      userPoolClientId: pool.userPoolClientId,
      created: { table, bucket, userPool: pool.created },
      tableStream: stream,
    };
  } finally {
    dynamodb.destroy();
    s3.destroy();
    cognito.destroy();
  }
}

const attribute = (name: string): AttributeDefinition => ({ AttributeName: name, AttributeType: 'S' });

/**
 * A table with the service's own keys (PK, SK: strings), on demand, and nothing else: no index, no
 * stream. The service's table starts from it (ensureTable); tests and benchmarks that want a bare
 * table of the same keys create it as it is.
 */
export function bareTableInput(tableName: string): CreateTableCommandInput & {
  KeySchema: KeySchemaElement[];
  AttributeDefinitions: AttributeDefinition[];
} {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
    ],
    AttributeDefinitions: [attribute(TABLE_KEYS.partitionKey), attribute(TABLE_KEYS.sortKey)],
  };
}

/**
 * Creates the table, or adds what TABLE_KEYS gained since the data was created: GSIs, the stream.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<{ created: boolean; stream: { arn: string; new: boolean } }> {
  const existing = await client
    .send(new DescribeTableCommand({ TableName: tableName }))
    .then((r) => r.Table)
    .catch((error: unknown) => {
      if ((error as Error).name === 'ResourceNotFoundException') return undefined;
      throw error;
    });
  const wanted = TABLE_KEYS.indexes.map((index): GlobalSecondaryIndex => ({
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: index.projection },
  }));
  let created = false;
  if (!existing) {
    const bare = bareTableInput(tableName);
    await client.send(
      new CreateTableCommand({
        ...bare,
        AttributeDefinitions: [
          ...bare.AttributeDefinitions,
          // An index may use the table's own keys (GSI5's partition key is PK): each attribute once.
          ...[...new Set<string>(TABLE_KEYS.indexes.flatMap((index) => [index.partitionKey, index.sortKey]))]
            .filter((name) => name !== TABLE_KEYS.partitionKey && name !== TABLE_KEYS.sortKey)
            .map(attribute),
        ],
        GlobalSecondaryIndexes: wanted,
        StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_KEYS.streamViewType },
      }),
    );
    created = true;
  } else {
    const present = new Set((existing.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    // One GSI per UpdateTable call, as in DynamoDB, and the next only once the one before is
    // built: while an index is being created another is refused (LimitExceededException).
    for (const index of wanted.filter((i) => !present.has(i.IndexName))) {
      const keys = index.KeySchema?.map((k) => k.AttributeName ?? '') ?? [];
      for (let attempt = 0; ; attempt++) {
        try {
          await client.send(
            new UpdateTableCommand({
              TableName: tableName,
              AttributeDefinitions: keys.map(attribute),
              GlobalSecondaryIndexUpdates: [{ Create: index }],
            }),
          );
          break;
        } catch (error) {
          if ((error as Error).name !== 'LimitExceededException' || attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    }
  }
  const stream = await ensureStream(client, tableName, existing);
  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const status = ttl.TimeToLiveDescription?.TimeToLiveStatus;
  if (status !== 'ENABLED' && status !== 'ENABLING') {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true },
      }),
    );
  }
  return { created, stream: { arn: stream.arn, new: created || stream.new } };
}

/** Enables the stream on a table made before it existed (or with another view type). */
async function ensureStream(
  client: DynamoDBClient,
  tableName: string,
  existing: TableDescription | undefined,
): Promise<{ arn: string; new: boolean }> {
  const spec = existing?.StreamSpecification;
  let changed = false;
  if (existing && !(spec?.StreamEnabled && spec.StreamViewType === TABLE_KEYS.streamViewType)) {
    // As in DynamoDB, a stream's view type cannot change: off first, then on again.
    if (spec?.StreamEnabled) {
      await client.send(
        new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }),
      );
    }
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_KEYS.streamViewType },
      }),
    );
    changed = true;
  }
  const arn =
    existing && !changed
      ? existing.LatestStreamArn
      : (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.LatestStreamArn;
  if (!arn) throw new Error(`table ${tableName} has no stream after enabling it`);
  return { arn, new: changed };
}

async function ensureBucket(client: S3Client, bucketName: string): Promise<boolean> {
  const exists = await client
    .send(new HeadBucketCommand({ Bucket: bucketName }))
    .then(() => true)
    .catch((err: unknown) => {
      const error = err as Error & { $metadata?: { httpStatusCode?: number } };
      if (error.name === 'NotFound' || error.$metadata?.httpStatusCode === 404) return false;
      throw error;
    });
  if (exists) return false;
  await client.send(new CreateBucketCommand({ Bucket: bucketName }));
  return true;
}

/**
 * Finds the pool by the ids saved last time (or, if that file is gone, by name), else creates pool
 * and client and saves their ids.
 */
async function ensureUserPool(
  client: CognitoIdentityProviderClient,
  stateFile: string,
): Promise<{ userPoolId: string; userPoolClientId: string; created: boolean }> {
  const saved: SavedState = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as SavedState) : {};
  const notFound = (error: Error) => {
    if (error.name === 'ResourceNotFoundException') return undefined;
    throw error;
  };

  let userPoolId: string | undefined;
  if (saved.userPoolId) {
    userPoolId = await client
      .send(new DescribeUserPoolCommand({ UserPoolId: saved.userPoolId }))
      .then((r) => r.UserPool?.Id)
      .catch(notFound);
  }
  if (!userPoolId) {
    const pools = await client.send(new ListUserPoolsCommand({ MaxResults: 60 }));
    userPoolId = pools.UserPools?.find((p) => p.Name === LOCAL_NAMES.userPool)?.Id;
  }
  let created = false;
  if (!userPoolId) {
    const pool = await client.send(
      new CreateUserPoolCommand({
        PoolName: LOCAL_NAMES.userPool,
        // Sign-in with the email as username: InitiateAuth USERNAME=<email>, as in the CDK stack.
        UsernameAttributes: ['email'],
        AutoVerifiedAttributes: ['email'],
        UsernameConfiguration: { CaseSensitive: false },
        Policies: {
          PasswordPolicy: {
            MinimumLength: PASSWORD_POLICY.minLength,
            RequireLowercase: PASSWORD_POLICY.requireLowercase,
            RequireUppercase: PASSWORD_POLICY.requireUppercase,
            RequireNumbers: PASSWORD_POLICY.requireDigits,
            RequireSymbols: PASSWORD_POLICY.requireSymbols,
          },
        },
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        Schema: [
          // Set once at creation: a user never changes tenant.
          {
            Name: 'tenant_id',
            AttributeDataType: 'String',
            Mutable: false,
            StringAttributeConstraints: { MinLength: '1', MaxLength: '64' },
          },
        ],
      }),
    );
    userPoolId = pool.UserPool?.Id;
    if (!userPoolId) throw new Error('cognito-local created a user pool without an id');
    created = true;
  }

  let userPoolClientId: string | undefined;
  if (saved.userPoolClientId && saved.userPoolId === userPoolId) {
    userPoolClientId = await client
      .send(new DescribeUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: saved.userPoolClientId }))
      .then((r) => r.UserPoolClient?.ClientId)
      .catch(notFound);
  }
  if (!userPoolClientId) {
    const clients = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
    userPoolClientId = clients.UserPoolClients?.find((c) => c.ClientName === LOCAL_NAMES.userPoolClient)?.ClientId;
  }
  if (!userPoolClientId) {
    const appClient = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: LOCAL_NAMES.userPoolClient,
        GenerateSecret: false,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        PreventUserExistenceErrors: 'ENABLED',
        AccessTokenValidity: 60,
        IdTokenValidity: 60,
        RefreshTokenValidity: 30,
        TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
      }),
    );
    userPoolClientId = appClient.UserPoolClient?.ClientId;
    if (!userPoolClientId) throw new Error('cognito-local created an app client without an id');
  }

  if (saved.userPoolId !== userPoolId || saved.userPoolClientId !== userPoolClientId) {
    writeFileSync(stateFile, `${JSON.stringify({ ...saved, userPoolId, userPoolClientId }, null, 2)}\n`);
  }
  return { userPoolId, userPoolClientId, created };
}
