import { PLANS } from '../../shared/domain/accounts/plans.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { portalPlansRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalPlansRoute, async () => json(PLANS));
