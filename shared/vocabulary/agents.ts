/**
 * The nine agents: the parts of the product that do automated work for a tenant, each backed by
 * real workers (shared/workers.ts) whose heartbeats say how it is (shared/domain/operations/status.ts).
 * What switching one off does for a tenant is stated per agent and documented in docs/operations.md.
 */

export const AGENT_NOT_FOUND = 'Agent not found';

export interface AgentDef {
  id: string;
  name: string;
  description: string;
  /** The workers that do its work: its status is theirs. */
  workers: readonly string[];
  /**
   * Work it does inside a request rather than in a worker (a short recording is transcribed and
   * its fields extracted while the voice route answers): each id's heartbeats, recorded by that
   * code (shared/domain/operations/work-runs.ts), count in its status and runs like a worker's.
   */
  inRequest?: readonly string[];
  /** The model it uses, when it uses one: `ai` (Bedrock or the offline extractor), `speech` (Transcribe or pocketsphinx). */
  model?: 'ai' | 'speech';
  /** What switching it off for a tenant does; absent: it cannot be switched off, for the reason in `required`. */
  whenDisabled?: string;
  /** Why a tenant may not switch it off. */
  required?: string;
  /** What a TENANT_ADMIN may configure besides switching it: the tenant configuration fields it reads. */
  settings?: readonly string[];
}

export const AGENTS: readonly AgentDef[] = [
  {
    id: 'voice-intake',
    name: 'Voice intake',
    description:
      'Transcribes voice reports into incident drafts (Amazon Transcribe, or pocketsphinx offline), finishing long recordings when the job completes.',
    workers: ['transcription-finished'],
    inRequest: ['voice-report-intake'],
    model: 'speech',
    whenDisabled: 'Voice reports are refused (409) for the tenant; manual and public reports still open incidents.',
  },
  {
    id: 'field-extraction',
    name: 'Field extraction and summary',
    description:
      'Reads a transcript and extracts the incident fields (type, severity, place, people) and a summary with an AI model.',
    workers: ['transcription-finished'],
    inRequest: ['voice-report-extraction'],
    model: 'ai',
    whenDisabled: 'Voice drafts keep their transcript without extracted fields or summary; an operator completes them.',
  },
  {
    id: 'event-triage',
    name: 'Event triage and scoring',
    description:
      "Scores every stored event (type, zone, hours, density, sensor health, threat definitions), opens an incident for an event at or over the tenant's incident threshold, and hands every event to the bus.",
    workers: ['publish-events'],
    whenDisabled: 'Events are still stored, scored and published, but no incident is opened from them automatically.',
    settings: ['incident_threshold'],
  },
  {
    id: 'threat-correlation',
    name: 'Threat correlation',
    description:
      "Matches each event against the tenant's threat-library definitions (repeats per zone included), keeps the active threats and analytics counters, and keeps vessels' tracks from AIS, announcing AIS gaps and loitering as events.",
    workers: ['count-analytics', 'vessel-announcer'],
    whenDisabled:
      'Events are matched against no threat definition (no matched_signatures, no signatures factor, no new active threats); counting for analytics goes on.',
  },
  {
    id: 'sla-watchdog',
    name: 'SLA watchdog and escalation',
    description: "Marks incidents nobody acknowledged by their SLA and escalates them up the tenant's policy.",
    workers: ['sla-escalation'],
    whenDisabled:
      "The tenant's incidents are not escalated by time; their timers wait, and are acted on at the next run after the agent is switched on again.",
  },
  {
    id: 'notifier',
    name: 'Notifier',
    description:
      "Tells each incident's people and integrations (email, Slack, Teams, PagerDuty, signed HTTP) with an acknowledgement link minted for each.",
    workers: ['send-notifications'],
    whenDisabled: 'Incident notifications are not sent: each is logged as skipped, and is not sent later.',
  },
  {
    id: 'webhook-deliverer',
    name: 'Webhook deliverer',
    description:
      'Makes one signed delivery per matching webhook subscription of every bus message and retries it on schedule.',
    workers: ['webhook-dispatch', 'webhook-deliver'],
    required:
      "Deliveries are the subscriber's record of what happened: switch a subscription off (PATCH /api/v1/webhooks/{id}) instead.",
  },
  {
    id: 'workflow-runner',
    name: 'Workflow runner',
    description:
      "Runs the tenant's workflows and playbooks on what triggers them, and goes on with them after their waits.",
    workers: ['workflow-runner', 'workflow-timers'],
    whenDisabled:
      'No workflow starts for the tenant and playbooks are refused (409); runs waiting out a wait stay parked and go on once it is switched on again.',
  },
  {
    id: 'audit-sealer',
    name: 'Audit sealer',
    description:
      "Digests each tenant's settled audit hours into a hash chain, so an edited or removed entry is found by verification.",
    workers: ['audit-digests'],
    required: "Tamper evidence is not the tenant administrator's to switch off.",
  },
];

export const AGENT_IDS = /* @__PURE__ */ (() => AGENTS.map((a) => a.id))();

export function agentById(id: string): AgentDef | undefined {
  return AGENTS.find((a) => a.id === id);
}
