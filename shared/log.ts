/**
 * Structured JSON logs, one line per entry, so CloudWatch Logs Insights can query every field.
 * Secrets never reach a log: callers pass fields, not requests, and `redact` guards the rest: a
 * field named like a secret is `[redacted]`, and a credential in any URL of any text (the message,
 * a field, an error) is `REDACTED` (shared/url-secrets.ts).
 */
import { config } from './config.js';
import { writeLogLine } from './log-sink.js';
import { redactSecretsIn, redactUrlsIn } from './url-secrets.js';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_KEYS = /password|secret|token|authorization|api[-_]?key|cookie/i;

export type Fields = Record<string, unknown>;

function redact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = SECRET_KEYS.test(key) ? '[redacted]' : redactSecretsIn(value);
  }
  return out;
}

function errorFields(err: unknown): Fields {
  if (err instanceof Error)
    return {
      error: { name: err.name, message: redactUrlsIn(err.message), stack: err.stack && redactUrlsIn(err.stack) },
    };
  return { error: redactUrlsIn(String(err)) };
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
    if (ORDER[level] < ORDER[minLevel]) return;
    const { err, ...rest } = fields;
    const entry = {
      level,
      time: new Date().toISOString(),
      msg: redactUrlsIn(msg),
      ...base,
      ...redact(rest),
      ...(err === undefined ? {} : errorFields(err)),
    };
    writeLogLine(entry, level);
  };
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
    child: (fields) => createLogger({ ...base, ...fields }, minLevel),
  };
}

export const log = createLogger({ service: 'gatehouse', stage: config.stage });
