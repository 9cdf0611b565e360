/**
 * Where the local runtime is composed: what a deployed function gets from its bundle, from Lambda
 * or from AWS, the local runtime installs here, before any handler module loads. Idempotent.
 * Called by the local server, the worker loader and the test run's setup file. No production
 * module imports this folder (test/unit/layers.test.ts): adapters default to AWS.
 *
 * - the Lambda runtime's global `awslambda` (streaming handlers call it when they load);
 * - a compiler for request validators (bundles carry them precompiled: lib/validators.ts);
 * - a worker's session policy for its tenants' credentials (the stack sets it per function);
 * - the in-process event bus and queues, pocketsphinx and the offline extractor, the data lake's DuckDB
 *   engine, where the configuration says `local` (EVENT_BUS_MODE, SPEECH_MODE, AI_MODE, LAKE_MODE:
 *   docs/configuration.md).
 */
import { installAwslambdaShim } from './awslambda-shim.js';
import { installValidatorCompiler } from './validators.js';
import { runningSessionPolicy } from './iam-check.js';
import { setPort } from '../runtime-ports.js';

/**
 * What needs no configuration: the Lambda runtime's global, the validator compiler, and a
 * worker's session policy (in AWS its own TENANT_SESSION_POLICY; here every worker shares the
 * process's environment, so it is the running worker's: shared/adapters/tenant-credentials.ts).
 */
export function composeLocalRuntime(): void {
  installAwslambdaShim();
  installValidatorCompiler();
  setPort('tenantSessionPolicy', runningSessionPolicy);
}

/**
 * The local adapters, where the configuration says `local`. Call it once the stack's settings are
 * in `process.env`: the configuration is read here (imported here, not at the top, because the
 * local server imports this module before the stack has set them).
 */
export async function installLocalAdapters(): Promise<void> {
  const [
    { config },
    bus,
    extraction,
    speech,
    { localEventBusAdapter },
    { LocalExtractor },
    { LocalSpeechRecognizer },
    secrets,
    localSecrets,
    mail,
    smtp,
  ] = await Promise.all([
    import('../config.js'),
    import('../adapters/event-bus.js'),
    import('../adapters/extraction/index.js'),
    import('../adapters/speech/index.js'),
    import('./event-bus.js'),
    import('./extraction/extractor.js'),
    import('./speech/recognizer.js'),
    import('../adapters/secret-box.js'),
    import('./secret-box.js'),
    import('../adapters/mailer.js'),
    import('./smtp.js'),
  ]);
  const [queue, localQueue, schedules, timers, auditSeal, localAuditMac, tenantData] = await Promise.all([
    import('../adapters/queue.js'),
    import('./queue.js'),
    import('../adapters/connector-schedules.js'),
    import('./connector-timers.js'),
    import('../db/audit/index.js'),
    import('./audit-mac.js'),
    import('../adapters/tenant-credentials.js'),
  ]);
  // No STS: the local IAM check evaluates the TenantData role's policy on each tenant's call.
  tenantData.useTenantCredentials(tenantData.localTenantCredentials);
  // No EventBridge Scheduler either: connectors' schedules are timers (off unless LOCAL_CONNECTORS=on).
  schedules.useConnectorSchedules(timers.localConnectorSchedules());
  if (config.lake.mode === 'local') {
    // DuckDB over the tenant's files in the local S3, and no Glue catalog to keep.
    const [lake, catalog, { DuckDbLakeEngine }] = await Promise.all([
      import('../adapters/lake/engine.js'),
      import('../adapters/lake/catalog.js'),
      import('./lake-duckdb.js'),
    ]);
    lake.useLakeEngine(new DuckDbLakeEngine());
    catalog.useLakeCatalog({ ensureTenant: async () => {} });
  }
  // No local SQS: the service's queues are in-process (shared/local/queue.ts), like the bus.
  if (config.eventBusMode === 'local') queue.useQueues(localQueue.localQueues());
  if (config.localSmtpUrl) mail.useMailer(new smtp.SmtpMailer(config.localSmtpUrl));
  if (config.localSecretsKeyFile)
    secrets.useSecretBox(new localSecrets.LocalSecretBox(localSecrets.localSecretKey(config.localSecretsKeyFile)));
  if (config.localAuditKeyFile) auditSeal.useAuditMac(new localAuditMac.LocalAuditMac(config.localAuditKeyFile));
  if (config.eventBusMode === 'local') bus.useEventBus(localEventBusAdapter(config.eventBusName, config.region));
  if (config.speech.mode === 'local') speech.useSpeechRecognizer(new LocalSpeechRecognizer());
  if (config.ai.mode === 'local') extraction.useIncidentAi(new LocalExtractor());
}
