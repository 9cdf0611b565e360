/**
 * The extractor and summariser voice reports use: Amazon Bedrock, unless the program was
 * composed with another (the local runtime installs offline rules: shared/local/compose.ts).
 */
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { config } from '../../config.js';
import { BedrockExtractor } from './bedrock.js';
import type { IncidentAi } from './fields.js';
import { portOf, setPort } from '../../runtime-ports.js';
import { tracedClient } from '../../tracing.js';

export * from './fields.js';
export { BedrockExtractor, EXTRACTION_TOOL } from './bedrock.js';

let bedrock: IncidentAi | undefined;

/** Where the program is composed: the extractor to use instead of Bedrock (shared/runtime-ports.ts). */
export function useIncidentAi(ai: IncidentAi): void {
  setPort('incidentAi', ai);
}

export function incidentAi(): IncidentAi {
  return (
    portOf<IncidentAi>('incidentAi') ??
    (bedrock ??= new BedrockExtractor({
      client: tracedClient(new BedrockRuntimeClient({ region: config.region })),
      modelId: config.ai.bedrockModelId,
    }))
  );
}
