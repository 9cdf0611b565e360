/**
 * Whether an error means a dependency (the table, storage, identity, the bus) cannot be reached,
 * timed out, failed on its side or throttles us: the contract answers those 503 with
 * Retry-After, never 500, since the same request may well succeed shortly. Recognised by what the
 * AWS SDK and Node put on errors (network codes, service error names, 5xx metadata, the SDK's own
 * retryable mark), following the error's `cause` chain.
 */
import { DomainError } from '../errors.js';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
]);

const THROTTLING = new Set([
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'SlowDown',
  'RequestThrottled',
  'RequestThrottledException',
]);

const TRANSIENT = new Set([
  'TimeoutError',
  'AbortError',
  'RequestTimeout',
  'RequestTimeoutException',
  'InternalServerError',
  'InternalFailure',
  'InternalErrorException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'TransactionConflictException',
  'TransactionInProgressException',
]);

/** Seconds to wait: a second after throttling, a few after an outage. */
export const THROTTLED_RETRY_AFTER_SECONDS = 1;

interface Classified {
  outage: boolean;
  throttled: boolean;
}

function classify(err: unknown): Classified {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    // Our own refusals and outages are already classified.
    if (e instanceof DomainError) return { outage: false, throttled: false };
    const { name, code, $metadata, $retryable } = e as {
      name?: string;
      code?: string;
      $metadata?: { httpStatusCode?: number };
      $retryable?: { throttling?: boolean };
    };
    if (name && THROTTLING.has(name)) return { outage: true, throttled: true };
    if ($retryable) return { outage: true, throttled: Boolean($retryable.throttling) };
    if ((code && NETWORK_CODES.has(code)) || (name && TRANSIENT.has(name))) return { outage: true, throttled: false };
    if (typeof $metadata?.httpStatusCode === 'number' && $metadata.httpStatusCode >= 500)
      return { outage: true, throttled: false };
    // A transaction that kept colliding with others (after our retries): busy, not broken.
    const reasons = (e as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if (
      name === 'TransactionCanceledException' &&
      (reasons ?? []).some((r) => r.Code === 'TransactionConflict' || r.Code === 'ThrottlingError')
    ) {
      return { outage: true, throttled: true };
    }
  }
  return { outage: false, throttled: false };
}

/** Whether `err` is a dependency outage or throttling (503), not a fault of ours (500). */
export const isOutage = (err: unknown): boolean => classify(err).outage;

/** Whether `err` is throttling (a short wait is enough). */
export const isThrottling = (err: unknown): boolean => classify(err).throttled;
