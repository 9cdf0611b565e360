/**
 * Drafts: a spoken report becomes a draft (recording stored under the tenant's prefix,
 * transcribed, fields extracted, what is missing asked as follow-up questions); answers complete
 * it; finalizing writes the summary and confirms it (SLA clock, notification with the link).
 */
import { incidentAi, withQuestions, type IncidentFields } from '../../adapters/extraction/index.js';
import { deleteObject, headObject, putObject } from '../../adapters/s3.js';
import {
  assertTenantAudioKey,
  AUDIO_CONTENT_TYPES,
  audioFormatOfKey,
  speechRecognizer,
  SpeechBusyError,
  SpeechUnavailableError,
  startsAsAudio,
  tenantAudioPrefix,
  TranscriptionFailedError,
} from '../../adapters/speech/index.js';
import { putPendingTranscription, type Incident, type VoiceReport } from '../../db/incidents.js';
import { ConflictError, invalid, NotFoundError, PayloadTooLargeError, ServiceUnavailableError } from '../../errors.js';
import { newTimeId } from '../../ids.js';
import { MAX_INCIDENT_DESCRIPTION, MAX_VOICE_UPLOAD_BYTES } from '../../schemas/incidents.js';
import { agentEnabled } from '../agents/index.js';
import { recordedRun } from '../operations/index.js';
import type { Actor } from '../actor.js';
import { startSlaClock } from './escalation.js';
import { byOf, change, configOf, findStored, openIncident, type IncidentView } from './incidents.js';
import { confirmationWrites } from './notifications.js';
import { transition } from './lifecycle.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { incidentComplete, voiceIncidentCreate } from '../../schemas/incidents.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** Standard base64 (RFC 4648, section 4), padded or not. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/** What a recognition may take before the draft is answered as pending (API Gateway allows 29 s). */
const RECOGNITION_BUDGET_MS = 20_000;

export type VoiceInput = InputOf<typeof voiceIncidentCreate>;

/** The incident's own fields that the extracted ones fill. */
export function incidentFieldsOf(fields: IncidentFields) {
  return {
    title: fields.title?.trim() || 'Voice report',
    type: fields.type,
    severity: fields.severity,
    location_text: fields.location_text,
    description: fields.description,
  };
}

/** `text` cut to `max` characters (code points), ending in an ellipsis when cut. */
function clip(text: string | undefined, max: number): string | undefined {
  if (text === undefined) return undefined;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

export async function draftFromVoice(actor: Actor, tenantId: TenantId, input: VoiceInput): Promise<IncidentView> {
  if (!(await agentEnabled(tenantId, 'voice-intake')))
    throw new ConflictError(
      'The voice intake agent is switched off for this tenant (PATCH /api/v1/agents/voice-intake): report manually instead',
    );
  let format = input.format ?? 'wav';
  let audioKey: string | null = null;
  let audio: Buffer | undefined;
  let stored = false;
  if (input.audio_base64) {
    // Buffer.from skips what is not base64 and decodes the rest: text would become a "recording".
    if (!BASE64.test(input.audio_base64.replace(/\s+/g, '')))
      throw invalid(['body', 'audio_base64'], 'is not base64', 'base64_format');
    audio = Buffer.from(input.audio_base64, 'base64');
    if (audio.length === 0) throw invalid(['body', 'audio_base64'], 'not a base64 recording', 'value_error');
    if (!startsAsAudio(audio, format))
      throw invalid(
        ['body', 'audio_base64'],
        `is not a ${format} recording: it does not begin as one${input.format ? '' : ' (name its format when it is another)'}`,
        'audio_format',
      );
    audioKey = `${tenantAudioPrefix(tenantId)}${newTimeId()}.${format}`;
    await putObject(audioKey, audio, AUDIO_CONTENT_TYPES[format]);
    stored = true;
  } else if (input.upload_key) {
    try {
      assertTenantAudioKey(tenantId, input.upload_key);
    } catch {
      throw new NotFoundError('Recording not found');
    }
    const stored = await headObject(input.upload_key);
    if (!stored) throw new NotFoundError('Recording not found');
    // Upload URLs sign the announced length (at most the limit), so only a PUT that bypassed them
    // gets here. 413 like an oversized infrastructure upload, but the object stays: the key names
    // no pending upload of ours, so it may be a recording something else refers to.
    if (stored.sizeBytes > MAX_VOICE_UPLOAD_BYTES) {
      throw new PayloadTooLargeError(`The recording is larger than ${MAX_VOICE_UPLOAD_BYTES} bytes`);
    }
    audioKey = input.upload_key;
    // Upload keys end in their format (incidents.voiceUploadUrl); a stated format still wins.
    format = input.format ?? audioFormatOfKey(audioKey) ?? format;
  } else if (!input.transcript) {
    throw invalid(['body'], 'send audio_base64, upload_key or transcript', 'missing');
  }

  let transcript = input.transcript ?? null;
  let unsureWords: string[] = [];
  let pendingJob: string | null = null;
  if (!transcript && audioKey) {
    try {
      // A run of voice intake; a recording that cannot be read is the sender's, not the agent's fault.
      const result = await recordedRun(
        'voice-report-intake',
        () =>
          speechRecognizer().transcribe({
            audioKey,
            audio,
            format,
            tenantId,
            budgetMs: RECOGNITION_BUDGET_MS,
          }),
        (err) => !(err instanceof TranscriptionFailedError),
      );
      if (result.status === 'completed') {
        transcript = result.transcript;
        unsureWords = result.unsureWords;
      } else pendingJob = result.jobName;
    } catch (err) {
      // A recording this request stored goes again: a refused report leaves nothing behind.
      if (stored) await deleteObject(audioKey);
      if (err instanceof SpeechUnavailableError)
        throw new ServiceUnavailableError(`No speech recogniser is available: ${err.message}`);
      if (err instanceof SpeechBusyError)
        throw new ServiceUnavailableError(`Speech recognition is busy: ${err.message}`);
      if (err instanceof TranscriptionFailedError)
        throw invalid(
          ['body', input.audio_base64 ? 'audio_base64' : 'upload_key'],
          `could not be read as ${format} audio`,
          'unreadable_audio',
        );
      throw err;
    }
  }
  // No fields are extracted while the tenant has the field-extraction agent off: an operator completes the draft.
  const extraction =
    transcript && (await agentEnabled(tenantId, 'field-extraction'))
      ? await recordedRun('voice-report-extraction', () => incidentAi().extract(transcript, { unsureWords }))
      : withQuestions({});
  const voice: VoiceReport = {
    audio_key: audioKey,
    transcript,
    transcription_status: pendingJob ? 'pending' : 'completed',
    transcription_job: pendingJob,
    fields: extraction.fields as Record<string, unknown>,
    missing_fields: extraction.missing,
    follow_up_questions: extraction.questions,
    unsure_words: unsureWords,
    doubts: extraction.doubts,
  };
  const own = incidentFieldsOf(extraction.fields);
  return openIncident(
    actor,
    tenantId,
    {
      ...own,
      title: own.title,
      // A transcript may be longer than a description: the whole of it stays in `voice.transcript`.
      description: clip(own.description ?? transcript ?? undefined, MAX_INCIDENT_DESCRIPTION),
      status: 'draft',
    },
    'voice',
    { voice },
    // The job's state-change event finds the draft through this (transcription.ts).
    (incidentId) =>
      pendingJob
        ? [putPendingTranscription({ tenant_id: tenantId, job_name: pendingJob, incident_id: incidentId })]
        : [],
  );
}

export type CompleteInput = InputOf<typeof incidentComplete>;

/** Fills a draft's missing fields from follow-up answers; a draft only (409 otherwise). */
export function completeDraft(
  actor: Actor,
  tenantId: TenantId,
  incidentId: string,
  input: CompleteInput,
): Promise<IncidentView> {
  return change(actor, tenantId, incidentId, (current, at) => {
    if (current.status !== 'draft')
      throw new ConflictError(`Only a draft is completed; this incident is ${current.status}`);
    const fields = { ...((current.voice?.fields ?? {}) as IncidentFields), ...(input.answers as IncidentFields) };
    const extraction = withQuestions(fields, current.voice?.doubts ?? []);
    const voice: VoiceReport = {
      ...(current.voice ?? {
        audio_key: null,
        transcript: null,
        transcription_status: 'completed',
        transcription_job: null,
      }),
      fields: fields,
      missing_fields: extraction.missing,
      follow_up_questions: extraction.questions,
    };
    const own = incidentFieldsOf(fields);
    const next: Incident = {
      ...current,
      voice,
      title: input.answers.title ? own.title : current.title,
      type: own.type ?? current.type,
      severity: own.severity ?? current.severity,
      location_text: own.location_text ?? current.location_text,
      description: own.description ?? current.description,
      history: [...current.history, { at, kind: 'completed', by: byOf(actor), detail: { answers: input.answers } }],
    };
    return {
      next,
      fields: ['voice', 'title', 'type', 'severity', 'location_text', 'description'],
      action: 'incident.updated',
      changes: { answers: input.answers },
    };
  });
}

/** Writes the summary, confirms the draft, starts its SLA clock and sends the notification. */
export async function finalizeDraft(
  actor: Actor,
  tenantId: TenantId,
  incidentId: string,
  note?: string,
): Promise<IncidentView> {
  const config = await configOf(tenantId);
  const ai = incidentAi();
  // The summary is written outside the transaction (a model call); the change checks the
  // incident's version, so a concurrent change makes it read again and summarise again.
  let summary = '';
  return change(
    actor,
    tenantId,
    incidentId,
    (current, at) => {
      const t = transition(current.status, 'confirmed', at, byOf(actor), note);
      const next: Incident = {
        ...current,
        status: 'confirmed',
        summary,
        ...startSlaClock(config, current.severity, at),
        history: [
          ...current.history,
          { at, kind: 'status', by: t.by, detail: { from: t.from, to: t.to, ...(note ? { note } : {}) } },
        ],
      };
      return {
        next,
        fields: ['status', 'summary'],
        action: 'incident.confirmed',
        changes: { status: { from: current.status, to: 'confirmed' } },
        extra: confirmationWrites(next, config),
      };
    },
    async () => {
      const current = await findStored(tenantId, incidentId);
      if (current.status === 'draft') {
        const fields = {
          ...((current.voice?.fields ?? {}) as IncidentFields),
          title: current.title,
          description: current.description ?? undefined,
        };
        summary = await ai.summarize({
          fields,
          transcript: current.voice?.transcript ?? current.description ?? current.title,
        });
      }
      return current;
    },
  );
}
