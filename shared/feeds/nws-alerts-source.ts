/**
 * Where NWS alerts come from and how large a document may be, apart from the parser
 * (nws-alerts.ts): the connectors' catalogue names them, and the routes that only show connectors
 * must not carry the parser's XML library for two constants.
 */
export const NWS_ALERTS_URL = 'https://api.weather.gov/alerts/active';
/** api.weather.gov's active alerts are a few MB (descriptions and polygons of every alert); the Atom index is smaller. */
export const NWS_ALERTS_MAX_BYTES = 16 * 1024 * 1024;
