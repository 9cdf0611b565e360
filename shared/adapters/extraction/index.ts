/**
 * The extractor and summariser this deployment uses (config.ai.mode): Bedrock in AWS, the offline
 * rules under the local stack.
 */
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { config, type Config } from '../../config.js';
import { BedrockExtractor } from './bedrock.js';
import type { IncidentAi } from './fields.js';
import { LocalExtractor } from './local.js';

export * from './fields.js';
export { BedrockExtractor, EXTRACTION_TOOL } from './bedrock.js';
export { LocalExtractor } from './local.js';

let bedrock: BedrockRuntimeClient | undefined;

export function incidentAi(cfg: Config = config): IncidentAi {
  if (cfg.ai.mode === 'local') return new LocalExtractor();
  bedrock ??= new BedrockRuntimeClient({ region: cfg.region });
  return new BedrockExtractor({ client: bedrock, modelId: cfg.ai.bedrockModelId });
}
