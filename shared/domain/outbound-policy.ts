/** Where the service may call out (webhooks, integrations, connectors): public addresses, and loopback only where the deployment allows it. */
import type { OutboundPolicy } from '../adapters/outbound.js';
import { config } from '../config.js';

export const outboundPolicy = (): OutboundPolicy => ({ allowLoopback: config.outboundAllowLoopback });
