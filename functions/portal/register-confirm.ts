import { confirmRegistration } from '../../shared/domain/accounts/index.js';
import { httpHandler } from '../../shared/http/handler.js';
import { formPostReply, isFormPost } from '../../shared/http/link-page.js';
import { json } from '../../shared/http/reply.js';
import { portalRegisterConfirmRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalRegisterConfirmRoute, async (req) => {
  const confirm = () => confirmRegistration(req.actor, req.query.token);
  // The link's page posts its form; programs get the account as JSON.
  return isFormPost(req.headers['content-type']) ? formPostReply(req.query.token, confirm) : json(await confirm());
});
