/** Platform routes: health, the API description and its documentation. */
import { docsAssetPath, health, openApiDocument } from '../schemas/platform.js';
import type { RouteDef } from './types.js';

export const healthRoute = {
  id: 'health',
  method: 'GET',
  path: '/health',
  handler: 'functions/platform/health.ts',
  access: 'public',
  tenant: 'none',
  tag: 'platform',
  summary: 'Health check',
  description: '200 once every dependency answers, 503 otherwise.',
  response: { status: 200, description: 'Every dependency answered.', schema: health },
  errors: [503],
  grants: { table: 'read', bucket: 'read', userPool: ['cognito-idp:DescribeUserPool'] },
} as const satisfies RouteDef;

export const openapiRoute = {
  id: 'openapi',
  method: 'GET',
  path: '/openapi.json',
  handler: 'functions/platform/openapi.ts',
  access: 'public',
  tenant: 'none',
  tag: 'platform',
  summary: 'This API as an OpenAPI 3.1 document',
  response: { status: 200, description: 'The OpenAPI document.', schema: openApiDocument },
  grants: {},
} as const satisfies RouteDef;

export const docsRoute = {
  id: 'docs',
  method: 'GET',
  path: '/docs',
  handler: 'functions/platform/docs.ts',
  access: 'public',
  tenant: 'none',
  tag: 'platform',
  summary: 'Interactive documentation',
  response: { status: 200, description: 'An HTML page that renders /openapi.json.', contentType: 'text/html' },
  grants: {},
} as const satisfies RouteDef;

export const docsAssetRoute = {
  id: 'docs.asset',
  method: 'GET',
  path: '/docs/{asset}',
  handler: 'functions/platform/docs-asset.ts',
  access: 'public',
  tenant: 'none',
  tag: 'platform',
  summary: 'Script and style of the interactive documentation',
  request: { path: docsAssetPath },
  response: {
    status: 200,
    description: 'The asset: the script, or the stylesheet.',
    contentType: 'text/javascript',
    alternateContentTypes: ['text/css'],
  },
  errors: [404],
  grants: {},
} as const satisfies RouteDef;

export const platformRoutes: readonly RouteDef[] = [healthRoute, openapiRoute, docsRoute, docsAssetRoute];
