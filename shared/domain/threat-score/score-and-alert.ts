/**
 * A threat score as the API answers it (docs/threat-score.md): computed, and when it touches a
 * watched entity (the target itself, its country or ASN, a watched line near it), a watchlist
 * alert raised, once an hour per entry and target (shared/domain/watchlist/alerts.ts).
 */
import type { TenantPlan } from '../../vocabulary/plans.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { hourBucket, raiseAlerts } from '../watchlist/index.js';
import { threatScore, type ScoreRequest } from './score.js';

export async function scoreAndAlert(tenantId: TenantId, req: ScoreRequest, plan: TenantPlan, nowMs = Date.now()) {
  const { touched, ...score } = await threatScore(tenantId, req, plan, nowMs);
  if (touched.length > 0) {
    await raiseAlerts(
      tenantId,
      touched.map((hit) => ({
        hit,
        trigger: 'score' as const,
        subject: `the threat score of ${score.target_type} ${score.target}`,
        atMs: nowMs,
        idTimeMs: nowMs,
        bucket: `${score.target_type}:${score.target}:${hourBucket(nowMs)}`,
        location: req.target_type === 'location' ? parsePoint(score.target) : null,
        details: {
          target: score.target,
          target_type: score.target_type,
          context: score.context,
          composite_score: score.composite_score,
          severity: score.severity,
        },
      })),
    );
  }
  return score;
}

const parsePoint = (key: string) => {
  const [lat, lon] = key.split(',').map(Number);
  return { lat: lat!, lon: lon! };
};
