import { lakeEngine } from '../../shared/adapters/lake/engine.js';
import { queryLake } from '../../shared/domain/data-lake/query.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { dataLakeQueryRoute } from '../../shared/routes/data-lake.js';

export const handler = httpHandler(dataLakeQueryRoute, async (req) =>
  json(await queryLake(lakeEngine(), req.tenant, req.body)),
);
