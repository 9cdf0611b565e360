import { rotatePublicReportKey } from '../../shared/domain/incidents/public-reports.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.publicKey', async (req) => json(await rotatePublicReportKey(req.actor)));
