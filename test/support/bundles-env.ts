/**
 * vitest setupFiles of the `bundles` project, after fresh-file.ts: its files run against a stack of
 * their own (global-setup.ts, `stackOf`), whose variables the workers did not inherit from the
 * main process (that holds the sources' stack's). They are set here, before anything reads
 * shared/config.ts, with the form that answers (platform.test.ts asks /health for it).
 */
import { inject } from 'vitest';

Object.assign(process.env, inject('localEnv'), { GATEHOUSE_HANDLERS: 'bundles' });
delete process.env.AWS_SESSION_TOKEN;
delete process.env.AWS_PROFILE;
process.env.OUTBOUND_ALLOW_LOOPBACK = 'true';
