/**
 * The extractor and summariser voice reports use: Amazon Bedrock, unless the program was
 * composed with another (the local runtime installs offline rules: shared/local/compose.ts).
 */
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { config } from '../../config.js';
import { BedrockExtractor } from './bedrock.js';
import type { IncidentAi } from './fields.js';

export * from './fields.js';
export { BedrockExtractor, EXTRACTION_TOOL } from './bedrock.js';

let installed: IncidentAi | undefined;

/** Where the program is composed: the extractor to use instead of Bedrock. */
export function useIncidentAi(ai: IncidentAi): void {
  installed = ai;
}

export function incidentAi(): IncidentAi {
  installed ??= new BedrockExtractor({
    client: new BedrockRuntimeClient({ region: config.region }),
    modelId: config.ai.bedrockModelId,
  });
  return installed;
}
