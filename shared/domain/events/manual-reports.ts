/**
 * Manual reports: a person's account of what they saw becomes a `manual_report` event (source
 * `human`), matched and scored like any other.
 */
import type { StoredEvent } from '../../db/events.js';
import type { Actor } from '../actor.js';
import { ingestEvents, type IngestEdge } from './ingest.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { manualReportCreate } from '../../schemas/events.js';

export type ManualReport = InputOf<typeof manualReportCreate>;

export async function fileManualReport(
  actor: Actor,
  tenantId: TenantId,
  report: ManualReport,
  edge: Omit<IngestEdge, 'decideTenant'>,
): Promise<{ report_id: string; event: StoredEvent }> {
  const [event] = await ingestEvents(
    actor,
    // Decided at the edge from the report's tenant_id.
    { ...edge, decideTenant: () => Promise.resolve(tenantId) },
    [
      {
        event_id: report.event_id,
        environment_id: report.environment_id,
        type: 'manual_report',
        source: 'human',
        occurred_at: report.occurred_at,
        location: report.location,
        severity: report.severity,
        description: report.description,
        payload: {
          title: report.title.trim(),
          reporter_name: report.reporter_name ?? null,
          reported_by_user_id: actor.principal?.userId ?? null,
        },
      },
    ],
    () => ['body'],
  );
  return { report_id: event!.event_id, event: event! };
}
