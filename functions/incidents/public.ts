import { filePublicReport, type PublicReport } from '../../shared/domain/incidents/public-reports.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.public', async (req) => json(await filePublicReport(req.actor, req.body as PublicReport)));
