/**
 * One file out of a `multipart/form-data` body, parsed with busboy. API Gateway hands binary
 * bodies to Lambda base64-encoded (see media-types.ts), the local server does the same.
 */
import busboy from 'busboy';
import { invalid, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors.js';
import { largerFilesHint } from './larger-files.js';

export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

export function decodeBody(body: string | null | undefined, isBase64Encoded: boolean): Buffer {
  if (!body) return Buffer.alloc(0);
  return isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
}

/**
 * The file in form field `field`; 415 for another content type, 413 past `maxBytes` (saying
 * `largerFiles`: largerFilesHint), 422 without it.
 */
export function parseMultipartFile(
  contentType: string | undefined,
  body: Buffer,
  field: string,
  maxBytes: number,
  largerFiles = largerFilesHint({}, null),
): Promise<UploadedFile> {
  const tooLarge = () => new PayloadTooLargeError(`The file is larger than ${maxBytes} bytes; ${largerFiles}`);
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) {
    return Promise.reject(
      new UnsupportedMediaTypeError('The body must be multipart/form-data with the file in the field "file"'),
    );
  }
  if (body.length > maxBytes * 1.01 + 64 * 1024) {
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 1, fileSize: maxBytes, fields: 20 },
      });
    } catch {
      reject(invalid(['body'], 'not a readable multipart body', 'multipart'));
      return;
    }
    let found: Promise<UploadedFile> | undefined;
    parser.on('file', (name, stream, info) => {
      if (name !== field || found) {
        stream.resume();
        return;
      }
      found = new Promise((done, fail) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('limit', () => fail(tooLarge()));
        stream.on('close', () =>
          done({ filename: info.filename ?? '', contentType: info.mimeType, data: Buffer.concat(chunks) }),
        );
        stream.on('error', fail);
      });
    });
    parser.on('error', () => reject(invalid(['body'], 'not a readable multipart body', 'multipart')));
    parser.on('close', () => {
      if (!found) reject(invalid(['body', field], `a file in the form field "${field}" is required`, 'missing'));
      else found.then(resolve, reject);
    });
    parser.end(body);
  });
}
