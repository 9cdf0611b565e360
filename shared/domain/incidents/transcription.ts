/**
 * Voice drafts whose Transcribe job outlived the request: when the job's state-change event comes
 * (worker `transcription-finished`), the transcript is read, the fields extracted, and each draft
 * waiting on the job is completed in one transaction with its audit entry, feed entry and
 * `incident.transcribed` on the bus. Answers an operator gave meanwhile win over extracted
 * fields. Running twice for one job changes nothing the second time.
 */
import { incidentAi, withQuestions, type Doubt, type IncidentFields } from '../../adapters/extraction/index.js';
import { finishTranscription } from '../../adapters/speech/index.js';
import {
  endPendingTranscription,
  getIncident,
  pendingTranscriptions,
  type Incident,
  type PendingTranscription,
  type VoiceReport,
} from '../../db/incidents.js';
import { ConditionFailed } from '../../db/transact.js';
import { log } from '../../log.js';
import { systemActor } from '../actor.js';
import { incidentFieldsOf } from './drafts.js';
import { SYSTEM_ACTOR } from './escalation.js';
import { change } from './incidents.js';
import { agentEnabled } from '../agents/index.js';
import { systemTenant } from '../../vocabulary/tenant.js';

export interface TranscriptionOutcome {
  job: string;
  status: 'completed' | 'failed' | 'pending';
  /** Drafts completed now (none when no draft waited, or another run completed them). */
  completed: string[];
}

/** Thrown inside a change when the draft no longer waits for this job. */
class NotWaiting extends Error {}

export async function completePendingTranscription(jobName: string, requestId: string): Promise<TranscriptionOutcome> {
  // The job's own record says whose recording it is; the event is trusted for nothing but the name.
  const finished = await finishTranscription(jobName);
  if (finished.status === 'pending') return { job: jobName, status: 'pending', completed: [] };
  // The job's media key names the tenant (checked by finishTranscription): system work.
  const waiting = await pendingTranscriptions(systemTenant(finished.tenantId), jobName);
  if (waiting.length === 0) return { job: jobName, status: finished.status, completed: [] };

  const transcript = finished.status === 'completed' ? finished.transcript : null;
  const unsureWords = finished.status === 'completed' ? finished.unsureWords : [];
  const extraction =
    transcript && (await agentEnabled(finished.tenantId, 'field-extraction'))
      ? await incidentAi().extract(transcript, { unsureWords })
      : null;
  const actor = systemActor(requestId);
  const completed: string[] = [];
  for (const pending of waiting) {
    try {
      await change(
        actor,
        // System work: the pending item was written in its draft's tenant.
        systemTenant(pending.tenant_id),
        pending.incident_id,
        (current, at) => {
          if (current.voice?.transcription_status !== 'pending' || current.voice.transcription_job !== jobName)
            throw new NotWaiting();
          const next = withTranscript(current, {
            transcript,
            extracted: extraction?.fields ?? {},
            doubts: extraction?.doubts ?? [],
            unsureWords,
            error: finished.status === 'failed' ? finished.reason : null,
          });
          next.history = [
            ...current.history,
            { at, kind: 'transcribed', by: SYSTEM_ACTOR, detail: { job: jobName, status: finished.status } },
          ];
          return {
            next,
            fields: ['voice', 'title', 'type', 'severity', 'location_text', 'description'],
            action: 'incident.transcribed',
            changes: { transcription_status: { from: 'pending', to: next.voice!.transcription_status } },
            extra: [endPendingTranscription(pending)],
          };
        },
        () => load(pending),
      );
      completed.push(pending.incident_id);
    } catch (error) {
      // Completed by another delivery of the same event, or gone: nothing left to do for it.
      if (error instanceof NotWaiting || (error instanceof ConditionFailed && error.index !== 0)) continue;
      throw error;
    }
  }
  log.info('transcription finished', {
    job: jobName,
    tenant_id: finished.tenantId,
    status: finished.status,
    drafts: completed.length,
  });
  return { job: jobName, status: finished.status, completed };
}

async function load(pending: PendingTranscription) {
  const incident = await getIncident(pending.tenant_id, pending.incident_id);
  if (!incident) throw new NotWaiting();
  return incident;
}

/**
 * The draft with its transcript and the fields read from it. Fields the draft has already (the
 * operator's answers) are kept; the incident's own fields are filled only where still unset, and
 * only while it is a draft.
 */
function withTranscript(
  current: Incident,
  got: {
    transcript: string | null;
    extracted: IncidentFields;
    doubts: Doubt[];
    unsureWords: string[];
    error: string | null;
  },
): Incident {
  const voice = current.voice!;
  const fields = { ...got.extracted, ...(voice.fields as IncidentFields) };
  const questions = withQuestions(fields, got.doubts);
  const nextVoice: VoiceReport = {
    ...voice,
    transcript: got.transcript,
    transcription_status: got.error ? 'failed' : 'completed',
    transcription_error: got.error,
    fields: fields,
    missing_fields: questions.missing,
    follow_up_questions: questions.questions,
    unsure_words: got.unsureWords,
    doubts: got.doubts,
  };
  // Once finalized (an operator did not wait for the transcript), the incident's own fields are
  // the operator's: its severity already set the SLA clock. The transcript and fields still land.
  if (current.status !== 'draft') return { ...current, voice: nextVoice };
  const own = incidentFieldsOf(fields);
  const answered = (field: keyof IncidentFields) => (voice.fields as IncidentFields)[field] !== undefined;
  return {
    ...current,
    voice: nextVoice,
    title: answered('title') ? current.title : own.title,
    type: current.type ?? own.type ?? null,
    severity: answered('severity') ? current.severity : (own.severity ?? current.severity),
    location_text: current.location_text ?? own.location_text ?? null,
    description: current.description ?? own.description ?? got.transcript,
  };
}
