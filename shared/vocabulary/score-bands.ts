/**
 * The severity bands of the 0..100 scores (cable risk, the threat score): LOW below 25, MEDIUM
 * from 25, HIGH from 50, CRITICAL from 75 (docs/vessels.md).
 */
export const SCORE_SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type ScoreSeverity = (typeof SCORE_SEVERITIES)[number];

export function severityOfScore(score: number): ScoreSeverity {
  if (score >= 75) return 'CRITICAL';
  if (score >= 50) return 'HIGH';
  if (score >= 25) return 'MEDIUM';
  return 'LOW';
}
