/**
 * The Bedrock extractor against a mocked client (aws-sdk-client-mock): the Converse request carries
 * the fields' tool schema and forces that tool, and the tool-use block becomes the fields (cleaned
 * against the schema), with the missing ones turned into questions.
 */
import { BedrockRuntimeClient, ConverseCommand, type ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { BedrockExtractor, EXTRACTION_TOOL } from '../../shared/adapters/extraction/bedrock.js';
import { FIELDS_JSON_SCHEMA, INCIDENT_TYPES } from '../../shared/adapters/extraction/fields.js';
import { DEFAULT_BEDROCK_MODEL_ID, loadConfig } from '../../shared/config.js';

const bedrockMock = mockClient(BedrockRuntimeClient);
const MODEL = 'global.anthropic.claude-haiku-4-5-20251001-v1:0';
const extractor = () =>
  new BedrockExtractor({ client: new BedrockRuntimeClient({ region: 'eu-west-1' }), modelId: MODEL });
const TRANSCRIPT = 'there is a suspicious person near gate four at the north fence';

const toolAnswer = (input: Record<string, unknown>): ConverseCommandOutput => ({
  $metadata: {},
  stopReason: 'tool_use',
  output: {
    message: {
      role: 'assistant',
      content: [{ toolUse: { toolUseId: 't1', name: EXTRACTION_TOOL, input: input as never } }],
    },
  },
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  metrics: { latencyMs: 1 },
});

beforeEach(() => bedrockMock.reset());
// The stub is on the SDK's client class, which the next file of this worker shares (fresh-file.ts).
afterAll(() => bedrockMock.restore());

describe('BedrockExtractor.extract', () => {
  it('sends the tool schema of the fields and forces that tool', async () => {
    bedrockMock.on(ConverseCommand).resolves(toolAnswer({ title: 'Suspicious person at gate 4' }));
    await extractor().extract(TRANSCRIPT);

    const input = bedrockMock.commandCalls(ConverseCommand)[0]!.args[0].input;
    expect(input.modelId).toBe(MODEL);
    expect(input.toolConfig?.toolChoice).toEqual({ tool: { name: EXTRACTION_TOOL } });
    const spec = input.toolConfig?.tools?.[0]?.toolSpec;
    expect(spec?.name).toBe(EXTRACTION_TOOL);
    const schema = spec?.inputSchema?.json as unknown as typeof FIELDS_JSON_SCHEMA;
    expect(schema).toEqual(JSON.parse(JSON.stringify(FIELDS_JSON_SCHEMA)));
    expect(Object.keys(schema.properties).sort()).toEqual(
      ['description', 'location_text', 'occurred_at_text', 'people', 'severity', 'title', 'type', 'vehicles'].sort(),
    );
    expect(schema.properties.type.enum).toEqual([...INCIDENT_TYPES]);
    expect(schema.properties.severity.enum).toEqual(['low', 'medium', 'high', 'critical']);
    // The transcript goes in as fenced data.
    expect(input.messages?.[0]?.content?.[0]?.text).toContain(`<report>\n${TRANSCRIPT}\n</report>`);
  });

  it('turns the tool-use input into the fields, and what is missing into questions', async () => {
    bedrockMock.on(ConverseCommand).resolves(
      toolAnswer({
        title: 'Suspicious person at gate 4',
        type: 'suspicious_activity',
        severity: 'medium',
        location_text: 'near gate 4 at the north fence',
        people: ['1 suspicious person'],
        description: 'A suspicious person was seen near gate 4 at the north fence.',
      }),
    );
    const result = await extractor().extract(TRANSCRIPT);
    expect(result.fields).toEqual({
      title: 'Suspicious person at gate 4',
      type: 'suspicious_activity',
      severity: 'medium',
      location_text: 'near gate 4 at the north fence',
      people: ['1 suspicious person'],
      description: 'A suspicious person was seen near gate 4 at the north fence.',
    });
    expect(result.missing).toEqual(['occurred_at_text']);
    expect(result.questions).toEqual(['When did it happen?']);
  });

  it('drops what the schema does not allow', async () => {
    bedrockMock.on(ConverseCommand).resolves(
      toolAnswer({
        type: 'alien_invasion',
        severity: 'extreme',
        people: 'many',
        tenant_id: 'x',
        title: '  Gate  4 ',
      }),
    );
    const result = await extractor().extract(TRANSCRIPT);
    expect(result.fields).toEqual({ title: 'Gate 4' });
    expect(result.missing).toEqual(['type', 'severity', 'location_text', 'occurred_at_text', 'description']);
  });

  it('fails clearly when the model does not call the tool', async () => {
    bedrockMock.on(ConverseCommand).resolves({
      $metadata: {},
      stopReason: 'end_turn',
      output: { message: { role: 'assistant', content: [{ text: 'I cannot help' }] } },
    });
    await expect(extractor().extract(TRANSCRIPT)).rejects.toThrow(EXTRACTION_TOOL);
  });
});

describe('BedrockExtractor.summarize', () => {
  it('asks Converse with a system prompt and returns its text', async () => {
    bedrockMock.on(ConverseCommand).resolves({
      $metadata: {},
      stopReason: 'end_turn',
      output: { message: { role: 'assistant', content: [{ text: ' A suspicious person was reported at gate 4. ' }] } },
    });
    const summary = await extractor().summarize({
      fields: { title: 'Suspicious person', location_text: 'gate 4' },
      transcript: TRANSCRIPT,
    });
    expect(summary).toBe('A suspicious person was reported at gate 4.');
    const input = bedrockMock.commandCalls(ConverseCommand)[0]!.args[0].input;
    expect(input.system?.[0]?.text).toMatch(/summary/i);
    expect(input.toolConfig).toBeUndefined();
    expect(input.messages?.[0]?.content?.[0]?.text).toContain('"location_text":"gate 4"');
  });
});

describe('configuration', () => {
  const base = { TABLE_NAME: 't', BUCKET_NAME: 'b', EVENT_BUS_NAME: 'e', USER_POOL_ID: 'p', USER_POOL_CLIENT_ID: 'c' };
  it('defaults to AWS in AWS, to local under the local stack, and takes explicit modes and a model id', () => {
    expect(loadConfig(base).ai).toEqual({ mode: 'aws', bedrockModelId: DEFAULT_BEDROCK_MODEL_ID });
    expect(loadConfig(base).speech.mode).toBe('aws');
    const local = loadConfig({ ...base, S3_ENDPOINT: 'http://127.0.0.1:1', EVENT_BUS_MODE: 'local' });
    expect([local.ai.mode, local.speech.mode]).toEqual(['local', 'local']);
    const chosen = loadConfig({ ...base, AI_MODE: 'local', SPEECH_MODE: 'aws', BEDROCK_MODEL_ID: 'm' });
    expect([chosen.ai.mode, chosen.speech.mode, chosen.ai.bedrockModelId]).toEqual(['local', 'aws', 'm']);
    expect(() => loadConfig({ ...base, SPEECH_MODE: 'cloud' })).toThrow(/SPEECH_MODE/);
  });
});
