/**
 * Structured JSON logs, one line per entry, on Powertools for AWS Lambda's Logger, so CloudWatch
 * Logs Insights can query every field (docs/observability.md, "Logs"). Powertools decides the
 * level (POWERTOOLS_LOG_LEVEL or LOG_LEVEL, Lambda's own AWS_LAMBDA_LOG_LEVEL first; config.logLevel
 * locally), samples debug per invocation (POWERTOOLS_LOGGER_SAMPLE_RATE), and gives each line its
 * standard keys (`level`, `message`, `timestamp`, `service`, `xray_trace_id`, `sampling_rate`).
 *
 * Every line of an invocation also carries its context (`withLogContext`): a request's
 * `request_id`, `route`, `tenant_id` and `correlation_id`; a worker's `worker` and its records'
 * `correlation_ids`; `cold_start`, `function_name` and `function_request_id`. The context lives in
 * an AsyncLocalStorage, not in the logger: the local server runs many invocations in one process.
 *
 * Secrets never reach a log: callers pass fields, not requests, and `redact` guards the rest: a
 * field named like a secret is `[redacted]`, and a credential in any URL of any text (the message,
 * a field, an error) is `REDACTED` (shared/url-secrets.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { LogFormatter, LogItem, Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { config } from './config.js';
import { writeLogText } from './log-sink.js';
import { redactSecretsIn, redactUrlsIn } from './url-secrets.js';

type Level = 'debug' | 'info' | 'warn' | 'error';
const SECRET_KEYS = /password|secret|token|authorization|api[-_]?key|cookie/i;

export type Fields = Record<string, unknown>;

function redact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out[key] = SECRET_KEYS.test(key) ? '[redacted]' : redactSecretsIn(value);
  }
  return out;
}

/** Powertools' standard keys first, then the context and the line's own fields, redacted. */
class RedactingFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: redactUrlsIn(String(attributes.message ?? '')),
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        sampling_rate: attributes.sampleRateValue || undefined,
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(redact(additional));
  }

  override formatError(error: Error): LogAttributes {
    const formatted = super.formatError(error);
    return {
      ...formatted,
      message: redactUrlsIn(String(formatted.message ?? '')),
      ...(typeof formatted.stack === 'string' ? { stack: redactUrlsIn(formatted.stack) } : {}),
    };
  }
}

/** Powertools' Logger, its lines written by shared/log-sink.ts (a file under the tests, else stdout/stderr). */
class SinkLogger extends PowertoolsLogger {
  protected override printLog(logLevel: number, item: LogItem): void {
    item.prepareForPrint();
    const level = String(item.getAttributes().level ?? 'INFO');
    writeLogText(JSON.stringify(item.getAttributes(), this.getJsonReplacer()), level);
  }

  /** True on the first invocation of this execution environment only. */
  isColdStartNow(): boolean {
    return this.getColdStart();
  }
}

const SERVICE = 'gatehouse';

const newPowertools = (level: Level) =>
  new SinkLogger({
    serviceName: SERVICE,
    logLevel: level.toUpperCase() as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR',
    logFormatter: new RedactingFormatter(),
    persistentKeys: { stage: config.stage },
  });

/** One Powertools logger per level asked for (the service's own, at config.logLevel, and tests'). */
const byLevel = new Map<Level, SinkLogger>();
const powertoolsAt = (level: Level): SinkLogger => {
  let logger = byLevel.get(level);
  if (!logger) byLevel.set(level, (logger = newPowertools(level)));
  return logger;
};

/** The invocation's context: fields every line written during it carries. */
const context = new AsyncLocalStorage<Fields>();

/**
 * Runs `fn` with `fields` (and those of the context it runs in) on every line it writes, however
 * deep: a route's or a worker's invocation, a record of a batch.
 */
export function withLogContext<T>(fields: Fields, fn: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, fn);
}

/** Adds fields to the current context (the tenant once the caller is known); none outside one. */
export function appendLogContext(fields: Fields): void {
  const store = context.getStore();
  if (store) Object.assign(store, fields);
}

/** The correlation id of what runs now (a request's, a record's), to carry it on (shared/db/outbox.ts). */
export function currentCorrelationId(): string | undefined {
  const id = context.getStore()?.correlation_id;
  return typeof id === 'string' ? id : undefined;
}

/** `correlation_id` of what runs now, for an item it writes that goes out on the bus; nothing outside a context. */
export function correlated(): { correlation_id?: string } {
  const id = currentCorrelationId();
  return id ? { correlation_id: id } : {};
}

/** A correlation id as a client or a message may give one: a short token of plain characters, else none. */
export function saneCorrelationId(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/.test(value) ? value : undefined;
}

/**
 * The fields of a Lambda invocation starting now: whether it is the environment's first, its
 * function and request id. Draws the invocation's debug sample (POWERTOOLS_LOGGER_SAMPLE_RATE).
 */
export function invocationFields(lambda: { awsRequestId?: string; functionName?: string } | undefined): Fields {
  const root = powertoolsAt(config.logLevel);
  root.refreshSampleRateCalculation();
  return {
    cold_start: root.isColdStartNow(),
    function_name: lambda?.functionName || process.env.AWS_LAMBDA_FUNCTION_NAME || undefined,
    function_request_id: lambda?.awsRequestId,
  };
}

export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields & { err?: unknown }): void;
  child(fields: Fields): Logger;
}

export function createLogger(base: Fields = {}, minLevel: Level = config.logLevel): Logger {
  const write = (level: Level, msg: string, fields: Fields = {}) => {
    const { err, ...rest } = fields;
    const error = err === undefined ? {} : { error: err instanceof Error ? err : redactUrlsIn(String(err)) };
    powertoolsAt(minLevel)[level](msg, { ...context.getStore(), ...base, ...rest, ...error });
  };
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
    child: (fields) => createLogger({ ...base, ...fields }, minLevel),
  };
}

export const log = createLogger();
