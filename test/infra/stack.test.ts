/**
 * The synthesized templates of the real route table: one function and one method per route,
 * least-privilege roles, and the shared resources configured as issue 2 asks.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ROUTES, routeById, type RouteDef } from '../../shared/routes/index.js';
import { DEPLOYED_WORKERS } from '../../shared/workers.js';
import { defaultTemplates, methods, resourceCount, resourcesOfType, synth, type Synthesized } from './synth.js';

/** The default app's templates, with the ids its construct tree gives (./synth-cache.ts). */
const s = defaultTemplates();

/** The template properties of a route's function, found through the construct tree. */
function functionOf(route: RouteDef): { stack: string; logicalId: string; props: Record<string, any> } {
  const found = s.routeFunctions[route.id];
  if (!found) throw new Error(`no function for route ${route.id}`);
  const template = s.nested.get(found.stack)!;
  return { ...found, props: template.toJSON().Resources[found.logicalId].Properties };
}

/** Statements of the function's role policy. */
function statementsOf(route: RouteDef): { Action: string | string[]; Resource: unknown }[] {
  const fn = functionOf(route);
  const template = s.nested.get(fn.stack)!;
  const roleId = fn.props.Role['Fn::GetAtt'][0] as string;
  const policies = resourcesOfType(template, 'AWS::IAM::Policy').filter(([, p]) =>
    (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId),
  );
  return policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}

function actionsOf(route: RouteDef): string[] {
  return statementsOf(route).flatMap((st) => (Array.isArray(st.Action) ? st.Action : [st.Action]));
}

const route = (id: string) => ROUTES.find((r) => r.id === id)!;

/**
 * The settings a stage may give, all in one small app: each shows on resources of its own (the
 * workers' logging, the email route's policy, the table's and pool's protection), so one synth
 * answers the three tests below that check them.
 */
let configuredApp: Synthesized | undefined;
const configured = (): Synthesized =>
  (configuredApp ??= synth({
    routes: [route('health'), routeById('integrations.test')],
    logLevel: 'info',
    logSampleRate: 0.01,
    logRetentionDays: 90,
    emailFrom: 'alerts@harbour.example',
    deletionProtection: false,
  }));

describe('functions', () => {
  it('one Lambda function per route, all in the route stacks', () => {
    expect(resourcesOfType(s.parent, 'AWS::Lambda::Function')).toHaveLength(0);
    const total = [...s.nested.values()].reduce((n, t) => n + resourcesOfType(t, 'AWS::Lambda::Function').length, 0);
    expect(total).toBe(ROUTES.length);
  });

  it.each(ROUTES.map((r) => [r.id, r] as const))('%s has its function: nodejs24.x on arm64, ESM bundle', (_id, r) => {
    const { props, stack } = functionOf(r);
    expect(s.routeStacks.map((rs) => rs.id)).toContain(stack);
    expect(props.Runtime).toBe('nodejs24.x');
    expect(props.Architectures).toEqual(['arm64']);
    expect(props.Handler).toBe('index.handler');
    expect(props.Description).toContain(`route ${r.id}:`);
    expect(props.Timeout).toBe(r.streaming ? 900 : (r.timeoutSeconds ?? 10));
    expect(props.MemorySize).toBe(r.memoryMb ?? 512);
  });

  it('every function gets the settings shared/config.ts requires, and source maps', () => {
    for (const r of ROUTES) {
      const env = functionOf(r).props.Environment.Variables as Record<string, unknown>;
      for (const name of ['TABLE_NAME', 'BUCKET_NAME', 'EVENT_BUS_NAME', 'USER_POOL_ID', 'USER_POOL_CLIENT_ID']) {
        expect(env[name], `${r.id} ${name}`).toEqual({ Ref: expect.any(String) });
      }
      expect(env).toMatchObject({ GATEHOUSE_STAGE: 'test', LOG_LEVEL: 'info', NODE_OPTIONS: '--enable-source-maps' });
    }
  });

  it('every function, route or worker, logs JSON at the stage’s level to its own log group with a retention, and is traced', () => {
    const functions = [...s.nested.values(), s.workers].flatMap((t) =>
      resourcesOfType(t, 'AWS::Lambda::Function').map(([id, f]) => ({ t, id, props: f.Properties })),
    );
    expect(functions).toHaveLength(ROUTES.length + DEPLOYED_WORKERS.length);
    for (const f of functions) {
      expect(f.props.TracingConfig, f.id).toEqual({ Mode: 'Active' });
      expect(f.props.LoggingConfig, f.id).toMatchObject({
        LogFormat: 'JSON',
        ApplicationLogLevel: 'INFO',
        SystemLogLevel: 'INFO',
      });
      const logGroup = f.t.toJSON().Resources[f.props.LoggingConfig.LogGroup.Ref as string];
      expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
      expect(logGroup.Properties.RetentionInDays, f.id).toBe(30);
      // Powertools' settings, the same for every function.
      expect(f.props.Environment.Variables, f.id).toMatchObject({
        POWERTOOLS_SERVICE_NAME: 'gatehouse',
        POWERTOOLS_METRICS_NAMESPACE: 'Gatehouse',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        POWERTOOLS_LOGGER_SAMPLE_RATE: '0',
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
        POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: 'false',
      });
    }
  });

  it('with debug sampling, the level is left to Powertools: Lambda’s would silence the sample', () => {
    const sampled = configured();
    const functions = resourcesOfType(sampled.workers, 'AWS::Lambda::Function');
    expect(functions).toHaveLength(DEPLOYED_WORKERS.length);
    for (const [id, f] of functions) {
      expect(f.Properties.LoggingConfig.LogFormat, id).toBe('JSON');
      expect(f.Properties.LoggingConfig, id).not.toHaveProperty('ApplicationLogLevel');
      expect(f.Properties.Environment.Variables, id).toMatchObject({
        POWERTOOLS_LOG_LEVEL: 'INFO',
        POWERTOOLS_LOGGER_SAMPLE_RATE: '0.01',
      });
      const logGroup = sampled.workers.toJSON().Resources[f.Properties.LoggingConfig.LogGroup.Ref as string];
      expect(logGroup.Properties.RetentionInDays, id).toBe(90);
    }
  });

  it('a missing handler file fails synth with a message naming it', () => {
    const missing = { ...route('health'), id: 'ghost.get', path: '/ghost', handler: 'functions/ghost/get.ts' };
    expect(() => synth({ routes: [missing] })).toThrow(
      /route ghost\.get: .*handler file functions\/ghost\/get\.ts does not exist/,
    );
  });

  it('docs.asset is told where the Swagger UI files are packaged; no other function is', () => {
    for (const r of ROUTES) {
      const env = functionOf(r).props.Environment.Variables as Record<string, unknown>;
      expect(env.DOCS_ASSETS_DIR).toBe(r.id === 'docs.asset' ? '/var/task' : undefined);
    }
  });
});

describe('methods', () => {
  it.each(ROUTES.map((r) => [r.id, r] as const))('%s has a method on its path, invoking its function', (_id, r) => {
    const found = methods(s).filter((m) => m.method === r.method && m.path === r.path);
    expect(found).toHaveLength(1);
    const fn = functionOf(r);
    expect(found[0]!.stack).toBe(fn.stack);
    expect(found[0]!.functionId).toBe(fn.logicalId);
    expect(found[0]!.integration.Type).toBe('AWS_PROXY');
  });

  it('/mcp answers GET and DELETE 405 with Allow: POST by a mock of its route stack, no function behind', () => {
    const mocks = [...s.nested.values()]
      .flatMap((t) => resourcesOfType(t, 'AWS::ApiGateway::Method'))
      .filter(([, m]) => m.Properties.Integration.Type === 'MOCK');
    expect(mocks.map(([, m]) => m.Properties.HttpMethod).sort()).toEqual(['DELETE', 'GET']);
    for (const [, m] of mocks) {
      expect(m.Properties.Integration.IntegrationResponses).toEqual([
        expect.objectContaining({
          StatusCode: '405',
          ResponseParameters: { 'method.response.header.Allow': "'POST'" },
        }),
      ]);
    }
  });

  it('no method beyond the routes, and none with an API Gateway authorizer', () => {
    expect(methods(s)).toHaveLength(ROUTES.length);
    for (const template of s.nested.values()) {
      for (const [, m] of resourcesOfType(template, 'AWS::ApiGateway::Method')) {
        expect(m.Properties.AuthorizationType).toBe('NONE');
      }
    }
  });

  it('one invoke permission per method that invokes a function (no test-invoke permission)', () => {
    for (const template of s.nested.values()) {
      expect(resourcesOfType(template, 'AWS::Lambda::Permission').length).toBe(
        resourcesOfType(template, 'AWS::ApiGateway::Method').filter(([, m]) => m.Properties.Integration.Type !== 'MOCK')
          .length,
      );
    }
  });
});

describe('least privilege', () => {
  it('a read route can read the table and nothing else, but count its calls', () => {
    const actions = actionsOf(route('tenants.get'));
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions).toContain('dynamodb:Query');
    expect(actions).not.toContain('dynamodb:PutItem');
    expect(actions).not.toContain('dynamodb:Scan');
    // And assume the TenantData role for its calls on the tenant's items (test/infra/tenant-data.test.ts).
    expect(actions.filter((a) => !/^(dynamodb|logs|xray):/.test(a))).toEqual(['sts:AssumeRole', 'sts:TagSession']);
    // The plan's rate is counted on every authenticated call: UpdateItem, on counter items only.
    const updates = statementsOf(route('tenants.get')).filter((st) =>
      [st.Action].flat().includes('dynamodb:UpdateItem'),
    );
    expect(updates).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:UpdateItem',
        Resource: { Ref: 'TableArn' },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
      }),
    ]);
  });

  it('every authenticated route may update the counters, every rate-limited one keep its window; other public routes may not', () => {
    for (const r of ROUTES) {
      const writes = r.grants.table === 'write';
      expect(actionsOf(r).includes('dynamodb:UpdateItem'), r.id).toBe(r.access !== 'public' || writes);
      // A developer route keeps the window of its unauthenticated callers' addresses.
      expect(actionsOf(r).includes('dynamodb:PutItem'), r.id).toBe(
        Boolean(r.rateLimit) || Boolean(r.developer) || writes,
      );
    }
    expect(actionsOf(route('health'))).not.toContain('dynamodb:UpdateItem');
    // A read-only page with a per-IP limit writes its callers' windows (it reads any item), and nothing else.
    const page = statementsOf(route('incidents.acknowledge.page')).filter((st) =>
      [st.Action].flat().includes('dynamodb:PutItem'),
    );
    expect(page).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:PutItem',
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
      }),
    ]);
  });

  it('only the routes that seal or open webhook secrets may use the secrets key, each for what it does', () => {
    expect(actionsOf(route('webhooks.create'))).toContain('kms:Encrypt');
    expect(actionsOf(route('webhooks.create'))).not.toContain('kms:Decrypt');
    expect(actionsOf(route('webhooks.test'))).toContain('kms:Decrypt');
    expect(actionsOf(route('webhooks.test'))).not.toContain('kms:Encrypt');
    const onSecretsKey = (r: RouteDef) =>
      statementsOf(r).filter((st) => JSON.stringify(st.Resource).includes('SecretsKeyArn'));
    expect(onSecretsKey(route('webhooks.create'))).toHaveLength(1);
    for (const r of ROUTES.filter((x) => !x.grants.secrets)) {
      expect(onSecretsKey(r), r.id).toEqual([]);
      expect(
        actionsOf(r).filter((a) => ['kms:Encrypt', 'kms:Decrypt'].includes(a)),
        r.id,
      ).toEqual([]);
    }
  });

  it('the routes that write audit entries may seal them with the audit key, only verify may check seals', () => {
    for (const r of ROUTES) {
      const onAuditKey = statementsOf(r).filter((st) => JSON.stringify(st.Resource).includes('AuditKeyArn'));
      expect(onAuditKey.flatMap((st) => [st.Action].flat()).sort(), r.id).toEqual([
        ...(r.grants.audit === 'seal' ? ['kms:GenerateMac'] : []),
        ...(r.id === 'auditLogs.verify' ? ['kms:VerifyMac'] : []),
      ]);
      // Neither action on any other resource.
      expect(
        statementsOf(r)
          .filter((st) => !JSON.stringify(st.Resource).includes('AuditKeyArn'))
          .flatMap((st) => [st.Action].flat())
          .filter((a) => a.endsWith('Mac')),
        r.id,
      ).toEqual([]);
      // It knows the key it may use; no other function is told it.
      expect(functionOf(r).props.Environment.Variables.AUDIT_KEY_ID !== undefined, r.id).toBe(onAuditKey.length > 0);
    }
    // The key: HMAC-SHA-256, for MACs only.
    s.parent.hasResourceProperties('AWS::KMS::Key', { KeySpec: 'HMAC_256', KeyUsage: 'GENERATE_VERIFY_MAC' });
  });

  it('email goes only from the configured sender, and without one no function may send any', () => {
    expect(actionsOf(route('integrations.test'))).not.toContain('ses:SendEmail');
    const withSender = configured();
    const statements = [...withSender.nested.values()]
      .flatMap((t) => Object.values(t.findResources('AWS::IAM::Policy')))
      .flatMap(
        (p) =>
          (
            p as {
              Properties: {
                PolicyDocument: { Statement: { Action: unknown; Resource: unknown; Condition?: unknown }[] };
              };
            }
          ).Properties.PolicyDocument.Statement,
      )
      .filter((st) => [st.Action].flat().includes('ses:SendEmail'));
    expect(statements).toHaveLength(1);
    expect(statements[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'alerts@harbour.example' } });
    expect(JSON.stringify(statements[0]!.Resource)).toContain('identity/harbour.example');
  });

  it('the voice route may run our Transcribe jobs and call Bedrock; a plain route may not', () => {
    const voice = actionsOf(route('incidents.voice'));
    expect(voice).toEqual(
      expect.arrayContaining([
        'transcribe:StartTranscriptionJob',
        'transcribe:GetTranscriptionJob',
        'bedrock:InvokeModel',
      ]),
    );
    expect(JSON.stringify(statementsOf(route('incidents.voice')))).toContain('transcription-job/gh-*');
    expect(actionsOf(route('incidents.finalize'))).toContain('bedrock:InvokeModel');
    expect(actionsOf(route('incidents.finalize'))).not.toContain('transcribe:StartTranscriptionJob');
    expect(
      actionsOf(route('incidents.list')).filter((a) => a.startsWith('bedrock:') || a.startsWith('transcribe:')),
    ).toEqual([]);
  });

  it('a write route can write the table', () => {
    expect(actionsOf(route('tenants.create'))).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem']),
    );
  });

  it('index access names the three indexes, no wildcard', () => {
    const indexStatement = statementsOf(route('tenants.list')).find((st) => Array.isArray(st.Resource))!;
    expect(JSON.stringify(indexStatement.Resource)).toMatch(/index\/GSI1.*index\/GSI2.*index\/GSI3/);
    expect(JSON.stringify(indexStatement.Resource)).not.toContain('*');
  });

  it('login may call exactly the user pool actions it lists, on the pool', () => {
    const login = route('portal.login');
    const cognito = statementsOf(login).filter((st) => JSON.stringify(st.Action).includes('cognito-idp:'));
    expect(cognito).toHaveLength(1);
    expect([cognito[0]!.Action].flat().sort()).toEqual([...login.grants.userPool!].sort());
    expect(cognito[0]!.Resource).toEqual({ Ref: 'UserPoolArn' });
  });

  it('bucket read is read only', () => {
    const actions = actionsOf(route('health'));
    expect(actions).toEqual(expect.arrayContaining(['s3:GetObject', 's3:ListBucket']));
    expect(actions).not.toContain('s3:PutObject');
  });

  it('a route without grants can only write its logs and traces', () => {
    expect(actionsOf(route('openapi')).sort()).toEqual([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
  });

  it("no statement anywhere allows every action, or every resource but X-Ray's", () => {
    // X-Ray's trace actions have no resource-level permissions (every function traces).
    const xray = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'];
    for (const template of [s.parent, ...s.nested.values()]) {
      for (const [, p] of resourcesOfType(template, 'AWS::IAM::Policy')) {
        for (const st of p.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[]) {
          expect(st.Action).not.toEqual('*');
          if (st.Resource === '*') expect([st.Action].flat().sort()).toEqual(xray);
        }
      }
    }
  });

  it('function roles carry no managed policy', () => {
    for (const template of s.nested.values()) {
      for (const [, role] of resourcesOfType(template, 'AWS::IAM::Role')) {
        expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      }
    }
  });
});

describe('data, storage, identity, events', () => {
  it('the table: on demand, PITR, TTL, deletion protection, three GSIs with ALL projection', () => {
    s.parent.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    s.parent.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
        Replicas: [
          Match.objectLike({
            DeletionProtectionEnabled: true,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        ],
        GlobalSecondaryIndexes: (['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5'] as const).map((name) => ({
          IndexName: name,
          KeySchema: [
            { AttributeName: name === 'GSI5' ? 'PK' : `${name}PK`, KeyType: 'HASH' },
            { AttributeName: `${name}SK`, KeyType: 'RANGE' },
          ],
          // GSI4 (which tenants stored events in which minute) holds keys only.
          Projection: { ProjectionType: name === 'GSI4' ? 'KEYS_ONLY' : 'ALL' },
        })),
      }),
    });
  });

  it('deletion protection can be turned off', () => {
    const unprotected = configured();
    unprotected.parent.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ Replicas: [Match.objectLike({ DeletionProtectionEnabled: false })] }),
    });
    unprotected.parent.hasResourceProperties('AWS::Cognito::UserPool', { DeletionProtection: 'INACTIVE' });
  });

  it('the files bucket: encrypted, private, versioned, access-logged', () => {
    s.parent.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: { Ref: Match.stringLikeRegexp('StorageAccessLogs') } },
    });
  });

  it('every bucket refuses requests without TLS', () => {
    const policies = resourcesOfType(s.parent, 'AWS::S3::BucketPolicy');
    expect(policies).toHaveLength(resourcesOfType(s.parent, 'AWS::S3::Bucket').length);
    for (const [, policy] of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 's3:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });

  it('the user pool: email sign-in, admin-only sign-up, immutable tenant_id, strong passwords', () => {
    s.parent.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Schema: Match.arrayWith([Match.objectLike({ Name: 'tenant_id', AttributeDataType: 'String', Mutable: false })]),
      Policies: {
        PasswordPolicy: Match.objectLike({
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        }),
      },
    });
    s.parent.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      IdTokenValidity: 60,
      TokenValidityUnits: Match.objectLike({ IdToken: 'minutes' }),
    });
  });

  it('an event bus named after the stage, archived', () => {
    s.parent.hasResourceProperties('AWS::Events::EventBus', { Name: 'gatehouse-test' });
    s.parent.resourceCountIs('AWS::Events::Archive', 1);
  });
});

describe('api', () => {
  it('a regional REST API that takes uploads as binary and compresses answers', () => {
    s.parent.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['REGIONAL'] },
      BinaryMediaTypes: Match.arrayWith(['multipart/form-data', 'audio/*']),
      // gzip past 1 KiB, as the local server does.
      MinimumCompressionSize: 1024,
    });
  });

  it('the stage writes JSON access logs and is throttled', () => {
    const [[, stage]] = resourcesOfType(s.parent, 'AWS::ApiGateway::Stage') as [[string, any]];
    expect(stage.Properties.StageName).toBe('test');
    // Status and latency are written as numbers (the route groups' metric filters compare them).
    const raw = stage.Properties.AccessLogSetting.Format as string;
    const format = JSON.parse(raw.replace(/:(\$context\.\w+)/g, ':"$1"')) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      stage: '$context.stage',
    });
    expect(raw).toContain('"status":$context.status');
    expect(raw).toContain('"responseLatency":$context.responseLatency');
    expect(stage.Properties.MethodSettings[0]).toMatchObject({
      ThrottlingRateLimit: expect.any(Number),
      ThrottlingBurstLimit: expect.any(Number),
      DataTraceEnabled: false,
    });
  });

  it('an unknown path answers 404 {"detail":"Not Found"}; other gateway errors carry a detail', () => {
    s.parent.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '404',
      ResponseTemplates: { 'application/json': '{"detail":"Not Found"}' },
    });
    for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX', 'THROTTLED']) {
      s.parent.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        ResponseTemplates: { 'application/json': Match.stringLikeRegexp('^\\{"detail":') },
      });
    }
    // The body of a 5xx names the request id, as the contract asks.
    s.parent.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'DEFAULT_5XX',
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('\\$context.requestId') },
    });
  });

  it('the root answers 404 too (and is the only method of the parent)', () => {
    const rootMethods = resourcesOfType(s.parent, 'AWS::ApiGateway::Method');
    expect(rootMethods).toHaveLength(1);
    expect(rootMethods[0]![1].Properties).toMatchObject({
      HttpMethod: 'ANY',
      Integration: { Type: 'MOCK', IntegrationResponses: [{ StatusCode: '404' }] },
    });
  });

  it('the deployment waits for every route stack', () => {
    const [[, deployment]] = resourcesOfType(s.parent, 'AWS::ApiGateway::Deployment') as [[string, any]];
    for (const routeStack of s.routeStacks) expect(deployment.DependsOn).toContain(routeStack.logicalId);
  });

  it('the deployment is replaced when the routes change, and only then', () => {
    const deploymentId = (x: Synthesized) => resourcesOfType(x.parent, 'AWS::ApiGateway::Deployment')[0]![0];
    const two = [route('health'), route('openapi')];
    const a = synth({ routes: two });
    const same = synth({ routes: [...two] });
    const more = synth({ routes: [...two, route('docs')] });
    const moved = synth({ routes: [two[0]!, { ...two[1]!, path: '/openapi-v2.json' }] });
    expect(deploymentId(same)).toBe(deploymentId(a));
    expect(deploymentId(more)).not.toBe(deploymentId(a));
    expect(deploymentId(moved)).not.toBe(deploymentId(a));
  });
});

describe('stack sizes', () => {
  it('every stack stays far under 500 resources', () => {
    expect(resourceCount(s.parent)).toBeLessThan(500);
    for (const [id, template] of s.nested) expect(resourceCount(template), id).toBeLessThan(500);
  });
});
