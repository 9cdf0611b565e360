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

/** The answer of an idempotent request; a replay says so in `Idempotent-Replayed`. */
export const idempotentReply = (answer: { status: number; body: unknown; replayed: boolean }): Reply => ({
  status: answer.status,
  json: answer.body,
  headers: answer.replayed ? { 'Idempotent-Replayed': 'true' } : {},
});
