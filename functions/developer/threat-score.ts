import { scoreAndAlert } from '../../shared/domain/threat-score/score-and-alert.js';
import { developerAuthorizer } from '../../shared/http/developer-auth.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { developerThreatScoreRoute } from '../../shared/routes/developer.js';

export const handler = httpHandler(
  developerThreatScoreRoute,
  async (req) =>
    json(
      await scoreAndAlert(
        req.tenant,
        {
          target: req.query.target,
          target_type: req.query.target_type,
          context: req.query.context,
        },
        req.plan,
      ),
    ),
  { authorizer: developerAuthorizer, plan: planGate },
);
