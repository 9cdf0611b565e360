/**
 * One prompt, for triage: it asks the assistant to read an incident and look around it with the
 * tools (correlation, threats, vessels) before proposing a response. Prompts cost nothing until
 * used and make the tools' intended order plain; one is enough to show it.
 */
import { ErrorCode, McpError, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';

export const PROMPTS: Prompt[] = [
  {
    name: 'triage_incident',
    title: 'Triage an incident',
    description:
      'Read an incident, gather what happened around it across domains, and propose a severity and next steps.',
    arguments: [{ name: 'incident_id', description: 'The incident to triage.', required: true }],
  },
];

export function promptMessages(name: string, args: Readonly<Record<string, string>>): GetPromptResult {
  if (name !== 'triage_incident') throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  const id = args.incident_id;
  if (!id) throw new McpError(ErrorCode.InvalidParams, 'incident_id is required');
  return {
    description: `Triage of incident ${id}`,
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: [
            `Triage incident ${id}.`,
            `1. Read the resource gatehouse://incidents/${id}.`,
            `2. Call get_correlation with incident_id ${id} to see sensor events, vessels, feed alerts and reports near it in place and time.`,
            '3. If vessels appear, call get_vessel_profile for the closest; if a cable is near, get_cable_risk at the incident location.',
            '4. Call query_threats for open threats in the same zone.',
            '5. Propose a severity, what to verify, and next steps. Do not dispatch a drone, run a playbook or open incidents unless I ask.',
          ].join('\n'),
        },
      },
    ],
  };
}
