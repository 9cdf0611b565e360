/** Turns replies and errors into API Gateway proxy results, in the contract's shapes. */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { Logger } from '../log.js';
import { metrics } from '../metrics.js';
import type { RouteDef } from '../routes/types.js';
import {
  DomainError,
  errorHeaders,
  isRefusal,
  OUTAGE_RETRY_AFTER_SECONDS,
  RequestValidationError,
  STATUS,
} from './errors.js';
import { isOutage, isThrottling, THROTTLED_RETRY_AFTER_SECONDS } from './outage.js';
import type { Reply } from './reply.js';

const JSON_TYPE = 'application/json';

export function toProxyResult(route: RouteDef, reply: Reply): APIGatewayProxyResult {
  const statusCode = reply.status ?? route.response.status;
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...reply.headers };
  if (statusCode === 204) return { statusCode, headers, body: '' };
  if (reply.base64 !== undefined) {
    return {
      statusCode,
      headers: { 'Content-Type': reply.contentType ?? 'application/octet-stream', ...headers },
      body: reply.base64,
      isBase64Encoded: true,
    };
  }
  if (reply.text !== undefined) {
    return {
      statusCode,
      headers: { 'Content-Type': reply.contentType ?? 'text/plain; charset=utf-8', ...headers },
      body: reply.text,
    };
  }
  return { statusCode, headers: { 'Content-Type': JSON_TYPE, ...headers }, body: JSON.stringify(reply.json ?? null) };
}

function jsonResult(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

/**
 * The contract's error bodies. Client errors say what is wrong; a fault (5xx) says only that it
 * happened and which request it was, and is logged in full.
 */
export function errorResult(err: unknown, requestId: string, log: Logger): APIGatewayProxyResult {
  if (err instanceof RequestValidationError) {
    return jsonResult(422, { detail: err.issues });
  }
  if (isRefusal(err)) {
    if (err.kind === 'rate_limited') metrics.rateLimitRefusal();
    return jsonResult(STATUS[err.kind], { detail: err.detail, ...err.extensions }, errorHeaders(err));
  }
  // http-errors style errors from middy middlewares (e.g. 415 from the body parser).
  const status = (err as { statusCode?: number; expose?: boolean }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: boolean }).expose !== false) {
    return jsonResult(status, { detail: (err as Error).message });
  }
  if (err instanceof DomainError) {
    log.warn('service unavailable', { kind: err.kind, detail: err.detail });
    return jsonResult(STATUS[err.kind], { detail: `${err.detail} (request ${requestId})` }, errorHeaders(err));
  }
  if (isOutage(err)) {
    const seconds = isThrottling(err) ? THROTTLED_RETRY_AFTER_SECONDS : OUTAGE_RETRY_AFTER_SECONDS;
    log.warn('a dependency is unavailable', { err });
    return jsonResult(
      503,
      { detail: `Service temporarily unavailable; retry in ${seconds} s (request ${requestId})` },
      { 'Retry-After': String(seconds) },
    );
  }
  log.error('unhandled error', { err });
  return jsonResult(500, { detail: `Internal Server Error (request ${requestId})` });
}
