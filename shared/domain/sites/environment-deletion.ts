/**
 * Deleting an environment, with everything in it when asked: its own module, because it is the
 * one environment operation that reaches the files bucket (and so the S3 client), which no other
 * environment route needs in its bundle.
 */
import { deleteObjectsUnder, environmentPrefix } from '../../adapters/s3.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { CHILD_KINDS, deleteEmptyEnvironment, type StoredEnvironment } from '../../db/environments.js';
import {
  deleteSiteEntity,
  listSiteEntitiesOfEnvironment,
  siteEntityId,
  SITE_KINDS,
  type SiteEntityBase,
} from '../../db/site-entities.js';
import { ConditionFailed, transactWrite } from '../../db/transact.js';
import { ConflictError } from '../../errors.js';
import type { Actor } from '../actor.js';
import { findStoredEnvironment } from './environments.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/**
 * Deletes an environment. Without `cascade`, one that holds anything is 409 naming what. With it,
 * its stored files go first (objects can be deleted again; a half-done cascade is finished by
 * calling again), then each thing in it with its audit entry, then the environment itself, whose
 * delete checks that it is empty at that instant.
 */
export async function deleteEnvironment(
  actor: Actor,
  environmentId: string,
  tenantId: TenantId,
  cascade: boolean,
): Promise<void> {
  const first = await findStoredEnvironment(tenantId, environmentId);
  if (cascade) await emptyEnvironment(actor, first);
  for (let attempt = 0; attempt < 3; attempt++) {
    const env = attempt === 0 && !cascade ? first : await findStoredEnvironment(tenantId, environmentId);
    const held = CHILD_KINDS.filter((k) => env.counts[k] > 0).map((k) => `${env.counts[k]} ${k}`);
    if (held.length > 0 && !cascade) {
      throw new ConflictError(`The environment still holds ${held.join(', ')}; delete them first or pass cascade=true`);
    }
    if (held.length > 0) {
      await emptyEnvironment(actor, env);
      continue;
    }
    const audit = auditEntry(actor, {
      tenantId,
      action: 'environment.deleted',
      resourceType: 'environment',
      resourceId: environmentId,
      changes: { name: env.name, cascade },
    });
    try {
      await transactWrite([deleteEmptyEnvironment(env), auditPut(audit)]);
      // Uploads never extracted leave objects that no item counts.
      await deleteObjectsUnder(environmentPrefix(tenantId, environmentId));
      return;
    } catch (err) {
      // Something was added or changed meanwhile: look again.
      if (!(err instanceof ConditionFailed)) throw err;
    }
  }
  throw new ConflictError('The environment kept changing while it was being deleted; try again');
}

async function emptyEnvironment(actor: Actor, env: StoredEnvironment): Promise<void> {
  await deleteObjectsUnder(environmentPrefix(env.tenant_id, env.environment_id));
  for (const kind of Object.values(SITE_KINDS)) {
    // Always the first page: each pass deletes what it read. The index may still show an entry
    // just deleted; a pass that shows nothing new ends the kind.
    const attempted = new Set<string>();
    for (;;) {
      const page = await listSiteEntitiesOfEnvironment<SiteEntityBase>(kind, env.tenant_id, env.environment_id, {
        limit: 50,
        offset: 0,
      });
      const fresh = page.filter((e) => !attempted.has(siteEntityId(kind, e)));
      if (fresh.length === 0) break;
      for (const entity of fresh) {
        const id = siteEntityId(kind, entity);
        attempted.add(id);
        const audit = auditEntry(actor, {
          tenantId: env.tenant_id,
          action: `${kind.resource}.deleted`,
          resourceType: kind.resource,
          resourceId: id,
          changes: { cascade_from_environment: env.environment_id },
        });
        try {
          await transactWrite([...deleteSiteEntity(kind, entity), auditPut(audit)]);
        } catch (err) {
          // Deleted or changed by someone else meanwhile; the environment's count tells the rest.
          if (!(err instanceof ConditionFailed)) throw err;
        }
      }
    }
  }
}
