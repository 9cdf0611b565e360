/** What a route's domain glue returns; the handler chain turns it into the Lambda proxy result. */
export interface Reply {
  /** Defaults to the route's success status. */
  status?: number;
  /** Serialised as JSON. */
  json?: unknown;
  /** A non-JSON body, sent as is with `contentType`. */
  text?: string;
  /** A binary body, base64-encoded, sent with `contentType`. */
  base64?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export const json = (body: unknown, status?: number): Reply => ({ json: body, status });
export const noContent = (): Reply => ({ status: 204 });
