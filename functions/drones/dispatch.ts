import { dispatchDrone } from '../../shared/domain/drones/dispatch.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { dronesDispatchRoute } from '../../shared/routes/drones.js';

export const handler = httpHandler(dronesDispatchRoute, async (req) => {
  const { dispatch, created } = await dispatchDrone(req.actor, req.tenant, req.params.incident_id, req.body);
  return json(dispatch, created ? 201 : 200);
});
