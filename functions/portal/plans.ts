import { PLANS } from '../../shared/domain/plans.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('portal.plans', async () => json(PLANS));
