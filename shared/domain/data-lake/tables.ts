/**
 * How bus messages become the data lake's rows and files (docs/data-lake.md); the tables
 * themselves: shared/vocabulary/data-lake.ts.
 *
 * Layout: `lake/<table>/tenant_id=<tenant>/dt=<YYYY-MM-DD>/<batch>.parquet`, one file per batch,
 * table, tenant and day; `<batch>` is a hash of the rows' ids, so a batch exported again rewrites
 * the same file. A message delivered again in another batch can still land in two files: every
 * table has a `key` column, unique per source record, and the query engine keeps one row per key
 * (the greatest `versionColumn` wins), so no record is counted twice.
 */
import { CONNECTORS_SOURCE, FEED_RECORDS_EXPORTED } from '../../vocabulary/bus.js';
import { tenantTablePrefix, type LakeRow, type LakeTableName } from '../../vocabulary/data-lake.js';

export * from '../../vocabulary/data-lake.js';

/** One message of the service bus, as the exporter receives it. */
export interface LakeMessage {
  source: string;
  detailType: string;
  detail: Record<string, unknown>;
}

export interface LakeRecord {
  table: LakeTableName;
  tenantId: string;
  /** The `dt` partition, YYYY-MM-DD (UTC). */
  date: string;
  /** Unique per source record (the table's key column). */
  id: string;
  row: LakeRow;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const time = (v: unknown): Date | null => {
  if (typeof v !== 'string') return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : new Date(ms);
};
const json = (v: unknown): string => JSON.stringify(v ?? null);
const point = (v: unknown): { lat: number | null; lon: number | null } => {
  const p = (typeof v === 'object' && v !== null ? v : {}) as { lat?: unknown; lon?: unknown };
  return { lat: num(p.lat), lon: num(p.lon) };
};
const day = (at: Date) => at.toISOString().slice(0, 10);

/** The lake records of a bus message: none for messages the lake does not keep. */
export function lakeRecordsOf(message: LakeMessage): LakeRecord[] {
  const detail = message.detail;
  const tenantId = str(detail.tenant_id);
  if (!tenantId) return [];
  if (message.source === 'gatehouse.events') {
    const eventId = str(detail.event_id);
    const occurredAt = time(detail.occurred_at);
    if (!eventId || !occurredAt) return [];
    const { lat, lon } = point(detail.location);
    const payload = (typeof detail.payload === 'object' && detail.payload !== null ? detail.payload : {}) as Record<
      string,
      unknown
    >;
    const records: LakeRecord[] = [
      {
        table: 'events',
        tenantId,
        date: day(occurredAt),
        id: eventId,
        row: {
          event_id: eventId,
          tenant_id: tenantId,
          type: str(detail.type) ?? message.detailType,
          source: str(detail.source),
          environment_id: str(detail.environment_id),
          sensor_id: str(detail.sensor_id),
          occurred_at: occurredAt,
          received_at: time(detail.received_at),
          lat,
          lon,
          severity: str(detail.severity),
          description: str(detail.description),
          threat_score: num(detail.threat_score),
          incident_id: str(detail.incident_id),
          matched_zone_ids: json(detail.matched_zone_ids ?? []),
          payload: json(payload),
          truncated: detail.truncated === true,
        },
      },
    ];
    const mmsi = str(payload.mmsi) ?? (typeof payload.mmsi === 'number' ? String(payload.mmsi) : null);
    if (message.detailType === 'ais.position' && mmsi && lat !== null && lon !== null && !payload.ais_error) {
      records.push({
        table: 'positions',
        tenantId,
        date: day(occurredAt),
        id: eventId,
        row: {
          event_id: eventId,
          tenant_id: tenantId,
          mmsi,
          occurred_at: occurredAt,
          lat,
          lon,
          sog_knots: num(payload.sog_knots),
          cog_degrees: num(payload.cog_degrees),
          heading_degrees: num(payload.heading_degrees),
          environment_id: str(detail.environment_id),
        },
      });
    }
    return records;
  }
  if (message.source === CONNECTORS_SOURCE && message.detailType === FEED_RECORDS_EXPORTED)
    return feedRecordRows(tenantId, detail.rows);
  if (
    message.source === 'gatehouse.incidents' &&
    message.detailType.startsWith('incident.') &&
    message.detailType !== 'incident.notification'
  ) {
    const incidentId = str(detail.incident_id);
    const updatedAt = time(detail.updated_at);
    if (!incidentId || !updatedAt) return [];
    const { lat, lon } = point(detail.location);
    return [
      {
        table: 'incidents',
        tenantId,
        date: day(updatedAt),
        // One row per change: a change delivered twice is one row, two changes are two (the latest wins).
        id: `${incidentId}:${str(detail.message_id) ?? updatedAt.toISOString()}`,
        row: {
          incident_id: incidentId,
          tenant_id: tenantId,
          change: message.detailType,
          title: str(detail.title),
          type: str(detail.type),
          severity: str(detail.severity),
          status: str(detail.status),
          source: str(detail.source),
          environment_id: str(detail.environment_id),
          assignee_id: str(detail.assignee_id),
          escalation_level: num(detail.escalation_level) ?? 0,
          created_at: time(detail.created_at),
          updated_at: updatedAt,
          lat,
          lon,
          event_ids: json(detail.event_ids ?? []),
        },
      },
    ];
  }
  return [];
}

/**
 * The rows a connector's poll sent (shared/domain/connectors/lake-export.ts), checked: a row of
 * another tenant than the message's, or without its key or poll time, is left out.
 */
function feedRecordRows(tenantId: string, rows: unknown): LakeRecord[] {
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((value): LakeRecord[] => {
    const r = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const key = str(r.record_key);
    const fetchedAt = time(r.fetched_at);
    if (!key || !fetchedAt || r.tenant_id !== tenantId) return [];
    return [
      {
        table: 'feed_records',
        tenantId,
        date: day(fetchedAt),
        id: `${key}@${fetchedAt.toISOString()}`,
        row: {
          record_key: key,
          tenant_id: tenantId,
          connector_id: str(r.connector_id),
          feed: str(r.feed),
          source: str(r.source),
          record_id: str(r.record_id),
          record_time: time(r.record_time),
          lat: num(r.lat),
          lon: num(r.lon),
          fetched_at: fetchedAt,
          record: str(r.record),
          truncated: r.truncated === true,
        },
      },
    ];
  });
}

/** The Parquet files a batch of records becomes: one per table, tenant and day. */
export interface LakeFile {
  table: LakeTableName;
  tenantId: string;
  date: string;
  key: string;
  rows: LakeRow[];
}

/**
 * Groups records into files. A record seen twice in the batch is one row. The file's name hashes
 * its rows' ids (sorted): the same batch exported again gives the same keys.
 */
export function lakeFilesOf(records: readonly LakeRecord[], hash: (text: string) => string): LakeFile[] {
  const groups = new Map<
    string,
    { table: LakeTableName; tenantId: string; date: string; rows: Map<string, LakeRow> }
  >();
  for (const r of records) {
    const group = `${r.table}\u0000${r.tenantId}\u0000${r.date}`;
    let g = groups.get(group);
    if (!g) groups.set(group, (g = { table: r.table, tenantId: r.tenantId, date: r.date, rows: new Map() }));
    g.rows.set(r.id, r.row);
  }
  return [...groups.values()].map((g) => {
    const ids = [...g.rows.keys()].sort();
    return {
      table: g.table,
      tenantId: g.tenantId,
      date: g.date,
      key: `${tenantTablePrefix(g.table, g.tenantId)}dt=${g.date}/${hash(ids.join('\n'))}.parquet`,
      rows: ids.map((id) => g.rows.get(id)!),
    };
  });
}
