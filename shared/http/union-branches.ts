/**
 * The branches of a schema's tagged unions (a `oneOf` with a `discriminator`), by the schema path
 * Ajv gives its errors (`#/properties/config/oneOf/3`), each named as the sender chose it:
 * `` `kind` `drone` ``. Worked out when validators are compiled (lib/validators.ts for a bundle,
 * shared/local/validators.ts from source), so a function carries a few labels, not its schemas.
 */
import type { JsonSchema } from '../schemas/json-schema.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

export function unionBranchLabels(schema: JsonSchema): Record<string, string> {
  const labels: Record<string, string> = {};
  const walk = (at: unknown, path: string): void => {
    if (Array.isArray(at)) return at.forEach((v, i) => walk(v, `${path}/${i}`));
    if (!isObject(at)) return;
    const tag = isObject(at.discriminator) ? at.discriminator.propertyName : undefined;
    if (typeof tag === 'string' && Array.isArray(at.oneOf)) {
      at.oneOf.forEach((branch, i) => {
        const value = isObject(branch) && isObject(branch.properties) ? branch.properties[tag] : undefined;
        if (isObject(value) && value.const !== undefined)
          labels[`${path}/oneOf/${i}`] = `\`${tag}\` \`${String(value.const)}\``;
      });
    }
    for (const [key, value] of Object.entries(at)) walk(value, `${path}/${pointer(key)}`);
  };
  walk(schema, '#');
  return labels;
}
