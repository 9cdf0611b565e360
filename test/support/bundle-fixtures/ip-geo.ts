/** A handler that looks one address up (test/infra/ip-geo-bundle.test.ts): the adapter as bundled. */
import { ipGeoSource, lookupIp } from '../../../shared/adapters/ip-geo.js';

export const handler = async (event: { ip: string }) => ({
  geo: await lookupIp(event.ip),
  source: await ipGeoSource(),
});
