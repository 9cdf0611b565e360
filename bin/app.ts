/**
 * The CDK app: `npx cdk synth` / `cdk deploy`. Settings come from context, e.g.
 * `npx cdk deploy -c stage=prod`; see lib/settings.ts.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { GatehouseStack } from '../lib/gatehouse-stack.js';
import { settingsFromContext } from '../lib/settings.js';

const app = new App();
const settings = settingsFromContext(app.node);

const stack = new GatehouseStack(app, `Gatehouse-${settings.stage}`, {
  ...settings,
  description: `Gatehouse multi-tenant physical-security backend (${settings.stage})`,
  // Unset offline: the stack is then environment-agnostic and synth needs no credentials.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Tags.of(stack).add('app', 'gatehouse');
Tags.of(stack).add('stage', settings.stage);

// cdk-nag runs at every synth: an unacknowledged finding fails it.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
