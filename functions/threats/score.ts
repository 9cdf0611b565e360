import { scoreAndAlert } from '../../shared/domain/threat-score/score-and-alert.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { threatScoreRoute } from '../../shared/routes/threat-score.js';

export const handler = httpHandler(
  threatScoreRoute,
  async (req) =>
    json(
      await scoreAndAlert(
        req.tenant,
        { target: req.query.target, target_type: req.query.target_type, context: req.query.context },
        req.plan,
      ),
    ),
  { plan: planGate },
);
