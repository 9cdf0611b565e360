/**
 * What each function of the stack is built from (lib/function-bundles.ts): its handler, a route's
 * request validators, and the files its package needs beyond the bundle.
 */
import type { RouteDef } from '../shared/routes/types.js';
import type { WorkerDef } from '../shared/workers.js';
import type { FunctionSource } from './function-bundles.js';
import { IP_GEO_PACKAGE_FILES } from './ip-geo-files.js';

export interface PackageExtras {
  /** Files under node_modules, copied flat next to index.mjs. */
  files: string[];
  /** The settings that point the function at them. */
  environment: Record<string, string>;
}

/**
 * What a route's package needs beyond its bundle. The documentation page serves Swagger UI's
 * script and style from the package itself (no CDN), and the threat score reads the IP databases,
 * so they are copied next to index.mjs.
 */
const ROUTE_PACKAGE_EXTRAS: Record<string, PackageExtras> = {
  'docs.asset': {
    files: ['swagger-ui-dist/swagger-ui.css', 'swagger-ui-dist/swagger-ui-bundle.js'],
    environment: { DOCS_ASSETS_DIR: '/var/task' },
  },
  // The threat score's geography: the offline IP databases (docs/ip-geography.md).
  'threatScore.get': IP_GEO_PACKAGE_FILES,
  'developer.threatScore': IP_GEO_PACKAGE_FILES,
  // The geopolitical overlay locates the watched IP addresses.
  'geopoliticalRisk.get': IP_GEO_PACKAGE_FILES,
};

export const routePackageExtras = (route: RouteDef): PackageExtras | undefined => ROUTE_PACKAGE_EXTRAS[route.id];

/** Every function of a stack: one per route, one per worker. */
export function functionSources(routes: readonly RouteDef[], workers: readonly WorkerDef[]): FunctionSource[] {
  return [
    ...routes.map((route) => ({
      id: route.id,
      label: `route ${route.id}`,
      handlerFile: route.handler,
      route,
      packageFiles: routePackageExtras(route)?.files ?? [],
    })),
    ...workers.map((worker) => ({ id: worker.id, label: `worker ${worker.id}`, handlerFile: worker.handler })),
  ];
}
