/** Where the service may call out (webhooks, integrations, connectors): public addresses, and loopback only where the deployment allows it. */
import type { OutboundPolicy } from '../adapters/outbound-address.js';
import { config } from '../config.js';

export const outboundPolicy = (): OutboundPolicy => ({
  allowLoopback: config.outboundAllowLoopback,
  // Locally a receiver on this machine is the usual test: say how to allow it. Never in AWS.
  ...(config.stage === 'local'
    ? { loopbackHint: 'a local run calls receivers on this machine when started with OUTBOUND_ALLOW_LOOPBACK=true' }
    : {}),
});
