/**
 * What a function that looks up IP geography (shared/adapters/ip-geo.ts) needs beyond its bundle,
 * in the shape of route-function.ts's PACKAGE_FILES: the four data files, copied flat next to
 * index.mjs (the asset's root, which Lambda unpacks at /var/task, its LAMBDA_TASK_ROOT), and the
 * settings that point the adapter at them. The files are about 40 MB unzipped (the two ASN CSVs
 * 32.8 MB, the two country databases 7.8 MB) of Lambda's 250 MB; esbuild never sees them.
 *
 * The package.json files are not copied, so the provenance the adapter reports (ipGeoSource) is
 * given as settings: `<package>@<version>` as installed when the stack is synthesized.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IP_GEO_DATA_FILES, IP_GEO_PACKAGES } from '../shared/adapters/ip-geo.js';
import { PROJECT_ROOT } from './function.js';

function installed(pkg: string): string {
  const { name, version } = JSON.parse(
    readFileSync(join(PROJECT_ROOT, 'node_modules', pkg, 'package.json'), 'utf8'),
  ) as {
    name: string;
    version: string;
  };
  return `${name}@${version}`;
}

export const IP_GEO_PACKAGE_FILES: { files: string[]; environment: Record<string, string> } = {
  files: Object.values(IP_GEO_DATA_FILES).map(({ pkg, file }) => `${pkg}/${file}`),
  environment: {
    GATEHOUSE_IP_DB_DIR: '/var/task',
    GATEHOUSE_IP_DB_ASN_SOURCE: installed(IP_GEO_PACKAGES.asn),
    GATEHOUSE_IP_DB_COUNTRY_SOURCE: installed(IP_GEO_PACKAGES.country),
  },
};
