/**
 * The local stand-in for KMS: AES-256-GCM under a key file of the data directory (made at the
 * first start, mode 0600), the context as additional authenticated data, so a value sealed for
 * one tenant or purpose does not open for another, as with KMS's encryption context. The calling
 * function's grants are checked as KMS would check its IAM policy.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { SecretBox, SecretContext } from '../adapters/secret-box.js';
import { checkAction } from './iam-check.js';

const PREFIX = 'local:v1:';

/** The key in `file`, made there (32 random bytes, owner-only) when missing. */
export function localSecretKey(file: string): Buffer {
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}

/** The context in a fixed order: the same pairs give the same bytes. */
const aad = (context: SecretContext) =>
  Buffer.from(JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b))));

export class LocalSecretBox implements SecretBox {
  constructor(private readonly key: Buffer) {}

  async seal(plain: string, context: SecretContext): Promise<string> {
    checkAction('kms:Encrypt');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  async open(sealed: string, context: SecretContext): Promise<string> {
    checkAction('kms:Decrypt');
    if (!sealed.startsWith(PREFIX)) throw new Error('not a value sealed with the local key');
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAAD(aad(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
