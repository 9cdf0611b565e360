/**
 * The JSON body step of the handler chain: size, content type and nesting depth first, then the
 * parse (@middy/http-json-body-parser), then what valid JSON may still carry that no field should
 * (shared/http/unsafe-input.ts). An absent body is left absent (a 422 on `body`), or read as `{}`
 * for a route whose every field is optional.
 */
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { BadRequestError, PayloadTooLargeError, RequestValidationError, UnsupportedMediaTypeError } from './errors.js';
import { unsafeJsonIssues } from './unsafe-input.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../json-depth.js';

/** The largest JSON body taken (413 beyond). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * Size, content-type and depth checks, then @middy/http-json-body-parser. An absent body is left
 * absent so validation reports it as a 422 on `body`; malformed JSON is a 400, as the contract
 * says, and so is JSON nested deeper than MAX_JSON_DEPTH (checked before the parse, so nothing
 * walks a deeper value).
 */
export function jsonBody(optional: boolean): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const parser = httpJsonBodyParser();
  return {
    before: async (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === null || body === undefined || body === '') {
        // Every field optional: no body is an empty one (defaults then apply).
        if (optional) {
          (request.event as { body: unknown }).body = {};
          return;
        }
        // Absent, not null: validation then reports a missing body, not a body of the wrong type.
        Reflect.deleteProperty(request.event, 'body');
        return;
      }
      const bytes = isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);
      if (bytes > MAX_JSON_BODY_BYTES) {
        throw new PayloadTooLargeError(`The body is larger than ${MAX_JSON_BODY_BYTES} bytes`);
      }
      const contentType = request.event.headers['content-type'];
      if (!contentType || !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
        throw new UnsupportedMediaTypeError('The body must be JSON (Content-Type: application/json)');
      }
      const text = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
      if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
        throw new BadRequestError(`The body is JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
      }
      try {
        await parser.before?.(request);
      } catch (err) {
        if ((err as { cause?: { package?: string } }).cause?.package === '@middy/http-json-body-parser') {
          // The parser also refuses valid JSON naming `__proto__`: that is a 422 on the key, not malformed JSON.
          const issues = validJson(text) ? unsafeJsonIssues(JSON.parse(text), ['body']) : [];
          if (issues.length > 0) throw new RequestValidationError(issues);
          throw new BadRequestError('The body is not valid JSON');
        }
        throw err;
      }
      const issues = unsafeJsonIssues(request.event.body, ['body']);
      if (issues.length > 0) throw new RequestValidationError(issues);
    },
  };
}

function validJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
