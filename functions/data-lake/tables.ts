import { lakeTables } from '../../shared/domain/data-lake/query.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { dataLakeTablesRoute } from '../../shared/routes/data-lake.js';

export const handler = httpHandler(dataLakeTablesRoute, async () => json(lakeTables()));
