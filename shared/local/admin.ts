/**
 * The first platform administrator of a local run, created through the domain code
 * (`shared/domain/accounts/bootstrap.ts`) once the local stack is up and its env is set.
 */

export interface LocalAdmin {
  email: string;
  password: string;
}

/** From GATEHOUSE_ADMIN_EMAIL / GATEHOUSE_ADMIN_PASSWORD; the defaults are for local use only. */
export function localAdminFromEnv(env: NodeJS.ProcessEnv = process.env): LocalAdmin {
  return {
    email: env.GATEHOUSE_ADMIN_EMAIL || 'admin@gatehouse.local',
    password: env.GATEHOUSE_ADMIN_PASSWORD || 'Gatehouse-admin-1',
  };
}

export async function ensureLocalAdmin(admin: LocalAdmin): Promise<{ created: boolean }> {
  // Imported here, not at the top: the domain code reads the configuration when it loads, and the
  // env only exists once the local stack has started.
  const { ensureBootstrapAdmin } = await import('../domain/accounts/index.js');
  return ensureBootstrapAdmin(admin);
}
