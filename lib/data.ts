/**
 * The single DynamoDB table. Its key schema comes from shared/db/table.ts, the same module the
 * local runtime creates its table from, so both have the same keys and indexes.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLE_KEYS } from '../shared/db/table.js';

export interface DataProps {
  /** Refuse DeleteTable and keep the table when the stack goes. */
  readonly deletionProtection: boolean;
}

export class Data extends Construct {
  readonly table: dynamodb.TableV2;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    const key = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: key(TABLE_KEYS.partitionKey),
      sortKey: key(TABLE_KEYS.sortKey),
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_KEYS.ttlAttribute,
      // The workers read new items from the stream (shared/workers.ts): the event bus fan-out.
      dynamoStream: dynamodb.StreamViewType[TABLE_KEYS.streamViewType],
      deletionProtection: props.deletionProtection,
      removalPolicy: props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      // Projections as shared/db/table.ts says why.
      globalSecondaryIndexes: TABLE_KEYS.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: dynamodb.ProjectionType[index.projection],
      })),
    });
  }
}
