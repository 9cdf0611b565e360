/** Who is calling, and who does something: the words every layer uses for it. */
import type { DeveloperTier } from './developer.js';
import type { Role } from './roles.js';

/** A caller as established from a verified credential (shared/auth/authenticate.ts). */
export interface Principal {
  userId: string;
  /** The caller's own tenant: the only source of tenant context. */
  tenantId: string;
  role: Role;
  email?: string;
  via: 'jwt' | 'api_key';
  /** The key used, when `via` is `api_key`. */
  apiKeyId?: string;
  /** Calls per minute the caller's tenant may make (its plan); null for no limit. */
  requestsPerMinute: number | null;
  /** The caller's tenant plan. */
  plan?: 'free' | 'pro' | 'enterprise';
  /** A developer key's tier and its own rate a minute, if it has them (shared/vocabulary/developer.ts). */
  developerTier?: DeveloperTier;
  keyRateLimit?: number | null;
}

interface ActorBase {
  requestId: string;
}

/** A person with a bearer token (`user`), or a program with one of their API keys (`api_key`). */
export interface CallerActor extends ActorBase {
  kind: 'user' | 'api_key';
  principal: Principal;
  sourceIp: string;
  /** The agent tool (MCP) whose call this request is, from its `X-Gatehouse-Tool` header: audit entries record it. */
  tool?: string;
}

/**
 * Someone without a credential: a public route's caller (login, registration, an acknowledgement
 * link), or an anonymous reporter, whose address is withheld (null) so nothing stored names them.
 */
export interface AnonymousActor extends ActorBase {
  kind: 'anonymous';
  principal: null;
  sourceIp: string | null;
}

/** The service itself: bootstrap, schedules, workers. */
export interface SystemActor extends ActorBase {
  kind: 'system';
  principal: null;
  sourceIp: string;
}

/**
 * A tenant's workflow, run by the workflow runner: what it changes is audited as the workflow
 * (`actor_type` `workflow`, its id and run in the entry's changes), never as a user.
 */
export interface WorkflowActor extends ActorBase {
  kind: 'workflow';
  principal: null;
  sourceIp: string;
  workflowId: string;
  /** The run; also the entries' `request_id`. */
  runId: string;
}

/**
 * Who does something and from where: what every mutation needs for its audit entry. Built by the
 * handler chain from the verified credential; domain code never sees a Lambda event.
 */
export type Actor = CallerActor | AnonymousActor | SystemActor | WorkflowActor;

/** Who did it, as history and feed entries name them: a user's id, `anonymous` or `system`. */
export function actorName(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
    case 'api_key':
      return actor.principal.userId;
    case 'anonymous':
      return 'anonymous';
    case 'system':
      return 'system';
    case 'workflow':
      return `workflow:${actor.workflowId}`;
  }
}
