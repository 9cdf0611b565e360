import { createUser } from '../../shared/domain/accounts/user-accounts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { usersCreateRoute } from '../../shared/routes/users.js';

export const handler = httpHandler(
  usersCreateRoute,
  async (req) => json(await createUser(req.actor, req.tenant, req.body)),
  { plan: planGate },
);
