import { uploadInfrastructureFile } from '../../shared/domain/infrastructure/upload.js';
import { httpHandler } from '../../shared/http/handler.js';
import { largerFilesHint } from '../../shared/http/larger-files.js';
import { decodeBody, parseMultipartFile } from '../../shared/http/multipart.js';
import { json } from '../../shared/http/reply.js';
import { infrastructureUploadRoute } from '../../shared/routes/infrastructure.js';

export const handler = httpHandler(infrastructureUploadRoute, async (req) => {
  const { field, maxBytes } = req.route.upload;
  const readFile = () =>
    parseMultipartFile(
      req.headers['content-type'],
      decodeBody(req.event.body, req.event.isBase64Encoded),
      field,
      maxBytes,
      largerFilesHint(req.route.upload, req.event.pathParameters),
    );
  return json(await uploadInfrastructureFile(req.actor, req.params.environment_id, req.tenant, readFile));
});
