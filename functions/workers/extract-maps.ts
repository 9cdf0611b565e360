/**
 * Worker `extract-maps` (shared/workers.ts): reads the `map-extractions` queue, one large map file
 * (KML, KMZ, GeoJSON or zipped shapefile) per message, and extracts it in the background
 * (shared/domain/infrastructure/background.ts).
 * Idempotent; a refused file is marked failed, not retried; a fault comes back after a backoff,
 * and on its last receive marks the file failed and waits in the dead letters.
 */
import { backoffOn } from '../../shared/adapters/queue-retry.js';
import { extractInBackground } from '../../shared/domain/infrastructure/background.js';
import { queueWorker } from '../../shared/worker-handler.js';
// The constant, not the worker table (shared/workers.ts), which would put every worker's definition in this bundle.
import { MAP_EXTRACTION_RECEIVES as maxReceiveCount } from '../../shared/vocabulary/queues.js';

export const handler = queueWorker('extract-maps', { hide: backoffOn('map-extractions') }, (record) =>
  extractInBackground(record.body, Number(record.attributes.ApproximateReceiveCount) >= maxReceiveCount),
);
