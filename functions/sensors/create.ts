import { createSensor, type SensorCreate } from '../../shared/domain/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('sensors.create', async (req) => json(await createSensor(req.actor, req.body as SensorCreate)));
