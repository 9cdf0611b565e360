import { infrastructureFeatures } from '../../shared/domain/infrastructure/files.js';
import { httpHandler } from '../../shared/http/handler.js';
import { infrastructureFeaturesRoute } from '../../shared/routes/infrastructure.js';

export const handler = httpHandler(infrastructureFeaturesRoute, async (req) => {
  const features = await infrastructureFeatures(req.actor, req.params.environment_id, req.params.file_id, req.tenant);
  // Too large for a Lambda response: the client follows the redirect to the stored object.
  if ('redirectTo' in features) return { status: 307, headers: { Location: features.redirectTo }, text: '' };
  // Sent as stored: no parse and re-serialise of a possibly large collection.
  return { text: features.json, contentType: 'application/json' };
});
