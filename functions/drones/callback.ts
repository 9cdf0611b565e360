import { takeCallback, verifyCallback } from '../../shared/domain/drones/dispatch.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { signedBody } from '../../shared/http/signed-callback.js';
import { dronesCallbackRoute } from '../../shared/routes/drones.js';

// The signature, with the secret of the drone integration the address names, is checked before the body is parsed.
const signed = signedBody(({ params, headers, rawBody }) =>
  verifyCallback(params.tenant_id ?? '', params.integration_id ?? '', headers, rawBody),
);

export const handler = httpHandler(
  dronesCallbackRoute,
  async (req) => json(await takeCallback(req.actor, signed.verifiedOf(req.event), req.body)),
  {
    authorizer: signed.authorizer,
  },
);
