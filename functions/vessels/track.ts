import { vesselTrack } from '../../shared/domain/vessels/track.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { vesselsTrackRoute } from '../../shared/routes/vessels.js';

export const handler = httpHandler(vesselsTrackRoute, async (req) => {
  const { tenant_id: _t, ...q } = req.query;
  return json(await vesselTrack(req.tenant, req.params.mmsi, q));
});
