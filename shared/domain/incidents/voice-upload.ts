/**
 * Recordings longer than a request may carry: the client asks for an upload URL, PUTs the
 * recording straight to S3 under its tenant's audio prefix, then sends the key to the voice route
 * (drafts.ts), which checks the prefix and the size again. Unlike the infrastructure upload URL
 * (infrastructure/presigned.ts) nothing is remembered in between: the key itself names the tenant
 * and the format, and the voice route reads nothing else.
 *
 * Imports stay off the recogniser and model adapters, so this route's bundle does not carry them.
 */
import { presignPut } from '../../adapters/s3.js';
import { AUDIO_CONTENT_TYPES, tenantAudioPrefix } from '../../adapters/speech/types.js';
import { newTimeId } from '../../ids.js';
import { MAX_VOICE_UPLOAD_BYTES } from '../../schemas/incidents.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { voiceUploadUrlRequest } from '../../schemas/incidents.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** As long as an infrastructure upload URL: enough to send 100 MB over a slow mobile link. */
export const VOICE_UPLOAD_URL_TTL_SECONDS = 15 * 60;

export type VoiceUploadUrlRequest = InputOf<typeof voiceUploadUrlRequest>;

export interface VoiceUploadUrl {
  upload_key: string;
  upload_url: string;
  method: 'PUT';
  headers: { 'Content-Length': string; 'Content-Type': string };
  expires_at: string;
  max_bytes: number;
}

/** A PUT URL for one recording of exactly `size_bytes`, under the caller's own tenant. */
export async function createVoiceUploadUrl(
  tenantId: TenantId,
  request: VoiceUploadUrlRequest,
): Promise<VoiceUploadUrl> {
  // The extension is the format: the voice route reads it back when the request names none.
  const uploadKey = `${tenantAudioPrefix(tenantId)}${newTimeId()}.${request.format}`;
  const expiresAt = new Date(Date.now() + VOICE_UPLOAD_URL_TTL_SECONDS * 1000).toISOString();
  // The length is signed: S3 takes exactly the announced number of bytes.
  const url = await presignPut(uploadKey, VOICE_UPLOAD_URL_TTL_SECONDS, request.size_bytes);
  return {
    upload_key: uploadKey,
    upload_url: url,
    method: 'PUT',
    headers: { 'Content-Length': String(request.size_bytes), 'Content-Type': AUDIO_CONTENT_TYPES[request.format] },
    expires_at: expiresAt,
    max_bytes: MAX_VOICE_UPLOAD_BYTES,
  };
}
