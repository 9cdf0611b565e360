import { describe, expect, it } from 'vitest';
import {
  hasPlaceholders,
  isSecretParam,
  joinUrl,
  keepUrlSecrets,
  redactSecretsIn,
  redactUrl,
  splitUrl,
  UrlPlaceholderError,
} from '../../shared/url-secrets.js';

const FULL = 'https://feed:p%40ss@feeds.example/list.csv?format=csv&token=S3cr%2Bt&api_key=K1&page=2&sig=abc';
const SHOWN =
  'https://REDACTED:REDACTED@feeds.example/list.csv?format=csv&token=REDACTED&api_key=REDACTED&page=2&sig=REDACTED';

describe('credentials in URLs', () => {
  it('splits a URL into its shown form and its secret parts, and joins them back byte for byte', () => {
    const split = splitUrl(FULL);
    expect(split.url).toBe(SHOWN);
    expect(split.secrets).toEqual({
      username: 'feed',
      password: 'p%40ss',
      query: [
        ['token', 'S3cr%2Bt'],
        ['api_key', 'K1'],
        ['sig', 'abc'],
      ],
    });
    expect(joinUrl(split.url, split.secrets)).toBe(FULL);
  });

  it('leaves a URL without credentials as it is', () => {
    const plain = 'https://ris-live.ripe.net/v1/stream/?format=json&client=gatehouse';
    expect(splitUrl(plain)).toEqual({ url: plain, secrets: null });
    expect(redactUrl('not a url')).toBe('not a url');
  });

  it('knows the usual names of credentials, and not ordinary parameters', () => {
    for (const name of ['token', 'key', 'apikey', 'api_key', 'API-Key', 'access_token', 'sig', 'signature', 'secret'])
      expect(isSecretParam(name), name).toBe(true);
    for (const name of ['password', 'client_secret', 'X-Amz-Signature', 'X-Amz-Credential', 'subscription-key'])
      expect(isSecretParam(name), name).toBe(true);
    for (const name of ['format', 'page', 'limit', 'client', 'q', 'country'])
      expect(isSecretParam(name), name).toBe(false);
  });

  it('a URL sent back as shown keeps the stored secrets at their places', () => {
    expect(hasPlaceholders(SHOWN)).toBe(true);
    expect(keepUrlSecrets(SHOWN, FULL)).toBe(FULL);
    // A new token beside a kept password and key; another path of the same origin.
    const changed = SHOWN.replace('token=REDACTED', 'token=new').replace('list.csv', 'other.csv');
    expect(keepUrlSecrets(changed, FULL)).toBe(
      FULL.replace('token=S3cr%2Bt', 'token=new').replace('list.csv', 'other.csv'),
    );
    // Nothing to keep: as given.
    expect(keepUrlSecrets('https://feeds.example/x?token=t', FULL)).toBe('https://feeds.example/x?token=t');
  });

  it('a placeholder without a stored secret, or for another host, is refused', () => {
    expect(() => keepUrlSecrets(SHOWN, null)).toThrow(UrlPlaceholderError);
    expect(() => keepUrlSecrets('https://feeds.example/x?password=REDACTED', FULL)).toThrow(/parameter password/);
    expect(() => keepUrlSecrets(SHOWN.replace('feeds.example', 'elsewhere.example'), FULL)).toThrow(/new host/);
  });

  it('redacts every URL in a text and in every string of a value', () => {
    const text = `GET ${FULL} failed; see https://status.example/ok`;
    expect(redactSecretsIn(text)).toBe(`GET ${SHOWN} failed; see https://status.example/ok`);
    const value = { changes: { endpoint: { from: null, to: FULL } }, list: [FULL], n: 3 };
    const redacted = redactSecretsIn(value);
    expect(JSON.stringify(redacted)).not.toMatch(/S3cr|K1|p%40ss|abc/);
    expect(redacted).toEqual({ changes: { endpoint: { from: null, to: SHOWN } }, list: [SHOWN], n: 3 });
    expect(value.list[0]).toBe(FULL);
  });
});
