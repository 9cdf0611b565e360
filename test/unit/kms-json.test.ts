/**
 * KMS calls made without the KMS client (shared/kms-json.ts): the audit key's MACs
 * (shared/db/audit/kms-mac.ts) and the secrets key's Encrypt and Decrypt (shared/adapters/secret-box.ts),
 * against a local HTTP server that speaks KMS's JSON protocol: the request is SigV4-signed for
 * `kms`, names its operation in X-Amz-Target, carries base64 blobs; KMS's answers and errors are
 * read as the SDK reads them (an invalid MAC is `false`, a ciphertext under another context is
 * refused, throttling is retried, then a throttling error).
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KmsAuditMac } from '../../shared/db/audit/kms-mac.js';
import { KmsJson } from '../../shared/kms-json.js';
import { isThrottling } from '../../shared/http/outage.js';
import { KmsSecretBox } from '../../shared/adapters/secret-box.js';

const KEY = Buffer.from('local test key of the stand-in KMS');
const KEY_ID = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';

interface Seen {
  headers: IncomingMessage['headers'];
  body: Record<string, string>;
}

describe('KMS calls without the KMS client', () => {
  let server: Server;
  let endpoint: string;
  const seen: Seen[] = [];
  let throttleNext = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as Record<string, string>;
        seen.push({ headers: req.headers, body });
        const answer = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
          res.end(JSON.stringify(json));
        };
        if (throttleNext > 0) {
          throttleNext--;
          return answer(400, { __type: 'ThrottlingException', message: 'Rate exceeded' });
        }
        const mac = () => createHmac('sha256', KEY).update(Buffer.from(body.Message!, 'base64')).digest();
        if (req.headers['x-amz-target'] === 'TrentService.GenerateMac') {
          return answer(200, { KeyId: body.KeyId, MacAlgorithm: body.MacAlgorithm, Mac: mac().toString('base64') });
        }
        // A stand-in ciphertext: the plaintext and its context, as KMS binds them.
        if (req.headers['x-amz-target'] === 'TrentService.Encrypt') {
          const blob = JSON.stringify({ p: body.Plaintext, c: body.EncryptionContext });
          return answer(200, { KeyId: body.KeyId, CiphertextBlob: Buffer.from(blob).toString('base64') });
        }
        if (req.headers['x-amz-target'] === 'TrentService.Decrypt') {
          const blob = JSON.parse(Buffer.from(body.CiphertextBlob!, 'base64').toString()) as { p: string; c: unknown };
          if (JSON.stringify(blob.c) !== JSON.stringify(body.EncryptionContext))
            return answer(400, { __type: 'InvalidCiphertextException', message: null });
          return answer(200, { KeyId: body.KeyId, Plaintext: blob.p });
        }
        if (req.headers['x-amz-target'] === 'TrentService.VerifyMac') {
          if (Buffer.from(body.Mac!, 'base64').equals(mac())) {
            return answer(200, { KeyId: body.KeyId, MacAlgorithm: body.MacAlgorithm, MacValid: true });
          }
          return answer(400, { __type: 'KMSInvalidMacException', message: null });
        }
        answer(400, { __type: 'UnknownOperationException' });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
    throttleNext = 0;
  });

  const mac = (maxAttempts?: number) =>
    new KmsAuditMac(
      new KmsJson({
        region: 'eu-west-1',
        endpoint,
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' },
        maxAttempts,
      }),
      KEY_ID,
    );

  it('GenerateMac: a signed KMS JSON request, and the MAC KMS answers', async () => {
    const message = Buffer.from('gatehouse.audit-seal.v1\nline');
    const out = await mac().generate(message);
    expect(Buffer.from(out)).toEqual(createHmac('sha256', KEY).update(message).digest());
    const [req] = seen;
    expect(req!.headers['x-amz-target']).toBe('TrentService.GenerateMac');
    expect(req!.headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(req!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/kms\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*x-amz-target[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(req!.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(req!.headers['x-amz-security-token']).toBe('token');
    expect(req!.body).toEqual({ KeyId: KEY_ID, MacAlgorithm: 'HMAC_SHA_256', Message: message.toString('base64') });
  });

  it('VerifyMac: true for the key MAC, false when KMS answers KMSInvalidMacException', async () => {
    const message = Buffer.from('entry');
    const good = await mac().generate(message);
    expect(await mac().verify(message, good)).toBe(true);
    expect(await mac().verify(Buffer.from('edited'), good)).toBe(false);
    expect(seen.at(-1)!.headers['x-amz-target']).toBe('TrentService.VerifyMac');
    expect(seen.at(-1)!.body.Mac).toBe(Buffer.from(good).toString('base64'));
  });

  it('throttling is retried; throttling that lasts is a throttling error (503 with Retry-After)', async () => {
    throttleNext = 1;
    await expect(mac().generate(Buffer.from('x'))).resolves.toBeInstanceOf(Uint8Array);
    expect(seen).toHaveLength(2);

    throttleNext = 5;
    const err = await mac(2)
      .generate(Buffer.from('x'))
      .catch((e: unknown) => e);
    expect((err as Error).name).toBe('ThrottlingException');
    expect(isThrottling(err)).toBe(true);
  });

  it('Encrypt and Decrypt of the secret box: base64 blobs with the context, and another context refused', async () => {
    const box = new KmsSecretBox(
      new KmsJson({
        region: 'eu-west-1',
        endpoint,
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      }),
      KEY_ID,
    );
    const context = { tenant_id: 't1', purpose: 'webhook:w1' };
    const sealed = await box.seal('whsec_ünïcode', context);
    expect(sealed).toMatch(/^kms:v1:[A-Za-z0-9+/]+=*$/);
    expect(seen[0]!.headers['x-amz-target']).toBe('TrentService.Encrypt');
    expect(seen[0]!.body).toEqual({
      KeyId: KEY_ID,
      Plaintext: Buffer.from('whsec_ünïcode').toString('base64'),
      EncryptionContext: context,
    });
    expect(await box.open(sealed, context)).toBe('whsec_ünïcode');
    expect(seen[1]!.headers['x-amz-target']).toBe('TrentService.Decrypt');
    const err = await box.open(sealed, { ...context, tenant_id: 't2' }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('InvalidCiphertextException');
  });
});
