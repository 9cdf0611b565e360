/**
 * The data lake's tables and bounds (docs/data-lake.md), as data: read by the exporter (Parquet
 * columns), the Glue catalog (Athena's column types), the local DuckDB engine, the route schemas
 * and `GET /api/v1/data-lake/tables`. How bus messages become rows: shared/domain/data-lake/tables.ts.
 *
 * Layout: `lake/<table>/tenant_id=<tenant>/dt=<YYYY-MM-DD>/<batch>.parquet`.
 */

export type LakeColumnType = 'string' | 'double' | 'bigint' | 'boolean' | 'timestamp';

export interface LakeColumn {
  name: string;
  type: LakeColumnType;
  description: string;
}

export interface LakeTable {
  name: LakeTableName;
  description: string;
  columns: readonly LakeColumn[];
  /** The column unique per source record: rows sharing it are one record (the latest kept). */
  key: string;
  /** Which of two rows with the same key wins: the greater of this column. */
  versionColumn: string;
}

export const LAKE_TABLE_NAMES = ['events', 'positions', 'incidents', 'feed_records'] as const;
export type LakeTableName = (typeof LAKE_TABLE_NAMES)[number];

/** The prefix of the lake under the files bucket. */
export const LAKE_PREFIX = 'lake/';

/** Where the Athena workgroup writes query results (lib/data-lake.ts), under the files bucket; expired after a day. */
export const LAKE_RESULTS_PREFIX = 'lake-results/';

/** The Glue/Athena name of a tenant's database: `<prefix>_<tenant id without dashes>`. */
export const tenantDatabaseName = (prefix: string, tenantId: string) =>
  `${prefix}_${tenantId.replace(/-/g, '').toLowerCase()}`;

const s = (name: string, description: string): LakeColumn => ({ name, type: 'string', description });
const d = (name: string, description: string): LakeColumn => ({ name, type: 'double', description });
const t = (name: string, description: string): LakeColumn => ({ name, type: 'timestamp', description });

export const LAKE_TABLES: readonly LakeTable[] = /* @__PURE__ */ (() => [
  {
    name: 'events',
    description:
      'Every stored event of the tenant, as published on the bus (a payload too large for the bus is left out: `truncated`).',
    key: 'event_id',
    versionColumn: 'received_at',
    columns: [
      s('event_id', 'The event id (UUIDv7).'),
      s('tenant_id', "The tenant (always the caller's)."),
      s('type', 'Event type, e.g. `intrusion.detected`.'),
      s('source', 'Who reported it.'),
      s('environment_id', 'Its environment, or null.'),
      s('sensor_id', 'Its sensor, or null.'),
      t('occurred_at', 'When it happened (UTC); also its `dt` partition.'),
      t('received_at', 'When the service stored it (UTC).'),
      d('lat', 'Latitude, or null.'),
      d('lon', 'Longitude, or null.'),
      s('severity', 'Severity as reported, or null.'),
      s('description', 'Description, or null.'),
      d('threat_score', 'Threat score at ingest (0-100), or null.'),
      s('incident_id', 'The incident it is linked to when published, or null.'),
      s('matched_zone_ids', 'Zones it matched, a JSON array.'),
      s('payload', 'The payload, a JSON object.'),
      {
        name: 'truncated',
        type: 'boolean',
        description: 'Whether payload and description were left out because the event was too large for the bus.',
      },
    ],
  },
  {
    name: 'positions',
    description: 'Vessel positions: the `ais.position` events of the tenant with a position and an MMSI.',
    key: 'event_id',
    versionColumn: 'occurred_at',
    columns: [
      s('event_id', 'The `ais.position` event.'),
      s('tenant_id', 'The tenant.'),
      s('mmsi', "The vessel's MMSI."),
      t('occurred_at', 'When the position was reported (UTC); also its `dt` partition.'),
      d('lat', 'Latitude.'),
      d('lon', 'Longitude.'),
      d('sog_knots', 'Speed over ground, or null.'),
      d('cog_degrees', 'Course over ground, or null.'),
      d('heading_degrees', 'Heading, or null.'),
      s('environment_id', 'Its environment, or null.'),
    ],
  },
  {
    name: 'incidents',
    description: "The tenant's incidents, each as of its latest change exported (one row per incident).",
    key: 'incident_id',
    versionColumn: 'updated_at',
    columns: [
      s('incident_id', 'The incident id.'),
      s('tenant_id', 'The tenant.'),
      s('change', 'The latest change, e.g. `incident.resolved`.'),
      s('title', 'Title.'),
      s('type', 'Type, or null.'),
      s('severity', 'Severity.'),
      s('status', 'Status.'),
      s('source', 'How it was opened.'),
      s('environment_id', 'Its environment, or null.'),
      s('assignee_id', 'Assignee, or null.'),
      { name: 'escalation_level', type: 'bigint', description: 'Escalation level.' },
      t('created_at', 'When it was opened (UTC).'),
      t('updated_at', 'When it last changed (UTC); also its `dt` partition.'),
      d('lat', 'Latitude, or null.'),
      d('lon', 'Longitude, or null.'),
      s('event_ids', 'Linked events, a JSON array.'),
    ],
  },
  {
    name: 'feed_records',
    description:
      "What the tenant's connectors read from their feeds (docs/connectors.md): each record as the connector last read it, once per source and record id. Exported after each poll, only the records new or changed since that connector's previous poll.",
    key: 'record_key',
    versionColumn: 'fetched_at',
    columns: [
      s('record_key', '`<source>|<record id>`: one record of one source.'),
      s('tenant_id', 'The tenant.'),
      s('connector_id', 'The connector whose poll read it.'),
      s('feed', 'The feed, e.g. `usgs-quakes`, `cisa-kev`.'),
      s('source', "The source: the feed's name for its public URL, else the name and a hash of the URL."),
      s('record_id', 'The record id within its source (e.g. a USGS event id, a CVE id).'),
      t(
        'record_time',
        "The record's own time when it has one (origin time, reading time, date added, valid from), or null.",
      ),
      d('lat', 'Latitude, when the record has a place.'),
      d('lon', 'Longitude, when the record has a place.'),
      t('fetched_at', 'When the poll read it (UTC); also its `dt` partition.'),
      s(
        'record',
        "The whole normalised record, a JSON object (docs/feeds.md gives each feed's fields); null when `truncated`.",
      ),
      {
        name: 'truncated',
        type: 'boolean',
        description:
          'Whether the record was too large (over 100 KB) to export whole: its other columns are there, not its body.',
      },
    ],
  },
])();

export function lakeTable(name: LakeTableName): LakeTable {
  return LAKE_TABLES.find((table) => table.name === name)!;
}

/** The prefix of one tenant's files of one table. */
export const tenantTablePrefix = (table: LakeTableName, tenantId: string) =>
  `${LAKE_PREFIX}${table}/tenant_id=${tenantId}/`;

/** A row: column name to value (strings, numbers, booleans, Dates or null). */
export type LakeRow = Record<string, string | number | boolean | Date | null>;

/** The bounds of every query, whichever the engine. */
export const LAKE_BOUNDS = {
  /** Rows returned at most (a request may ask for fewer). */
  maxRows: 1000,
  defaultRows: 100,
  /** A query running longer is interrupted (Athena: stopped). Under the query route's 28 s timeout (API Gateway allows 29). */
  timeoutMs: 20_000,
  /** Bytes a query may read at most: the Athena workgroup's cutoff; DuckDB refuses a tenant's lake larger than this. */
  maxBytesScanned: 1_073_741_824,
  /** The local engine's memory and threads. */
  memoryLimit: '256MB',
  threads: 2,
} as const;
