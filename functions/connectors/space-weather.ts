import { spaceWeather } from '../../shared/domain/connectors/space-weather.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { spaceWeatherRoute } from '../../shared/routes/connectors.js';

export const handler = httpHandler(spaceWeatherRoute, async (req) =>
  json(await spaceWeather(req.tenant, Date.now(), req.query.conductors)),
);
