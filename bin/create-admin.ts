/**
 * Creates the first platform administrator (SUPER_ADMIN) in a deployed stack. There is no
 * default password in AWS: give one in GATEHOUSE_ADMIN_PASSWORD (it must meet the user pool's
 * policy). The stack's outputs name the variables to set; see README "Deploy".
 *
 *   npm run create-admin -- --email you@example.com
 */
const args = process.argv.slice(2);
const emailIndex = args.indexOf('--email');
const email = emailIndex >= 0 ? args[emailIndex + 1] : undefined;
const password = process.env.GATEHOUSE_ADMIN_PASSWORD;

if (!email || !password) {
  console.error('usage: GATEHOUSE_ADMIN_PASSWORD=... npm run create-admin -- --email you@example.com');
  console.error(
    'with TABLE_NAME, BUCKET_NAME, EVENT_BUS_NAME, USER_POOL_ID, USER_POOL_CLIENT_ID and AWS_REGION set from the stack outputs',
  );
  process.exit(2);
}

try {
  // Imported after the checks: the config module reads the environment when it loads.
  const { ensureBootstrapAdmin } = await import('../shared/domain/accounts/index.js');
  const result = await ensureBootstrapAdmin({ email, password });
  console.log(
    result.created
      ? `created SUPER_ADMIN ${email} (user ${result.userId}, platform tenant ${result.tenantId})`
      : `${email} exists already (user ${result.userId}); nothing changed`,
  );
} catch (err) {
  console.error(`could not create the administrator: ${(err as Error).message}`);
  process.exit(1);
}
