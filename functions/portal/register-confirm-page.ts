import { confirmationLink } from '../../shared/domain/accounts/index.js';
import { httpHandler } from '../../shared/http/handler.js';
import { registrationPageReply } from '../../shared/http/registration-page.js';
import { portalRegisterConfirmPageRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalRegisterConfirmPageRoute, async (req) =>
  registrationPageReply(await confirmationLink(req.query.token)),
);
