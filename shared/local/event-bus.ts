/**
 * The local stand-in of the EventBridge bus: what the event bus adapter publishes to when
 * EVENT_BUS_MODE is `local` (`npm start`, the tests). It turns each entry into the event
 * EventBridge would deliver (the same envelope), keeps what was published (and appends it to a
 * JSON Lines file when told to, so another process can see it), and hands each event to every
 * subscriber whose pattern matches, as EventBridge rules do.
 *
 * One bus per process (kept on globalThis, so two copies of this module still share it).
 * Delivery is asynchronous, like a rule target's: a subscriber's failure is logged and does not
 * reach the publisher, and it is not retried.
 */
import { writeLogLine } from '../log-sink.js';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { EventBus } from '../adapters/event-bus.js';
import type { BusEntry } from '../vocabulary/bus.js';
import { checkPattern, matchesPattern, type EventPattern } from './event-pattern.js';

/** What an EventBridge rule target receives. */
export interface BusEvent {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: Record<string, unknown>;
}

export type Subscriber = (event: BusEvent) => unknown;

/** The account id local ARNs and envelopes carry. */
export const LOCAL_ACCOUNT = '000000000000';

/** Published events kept in memory at most (the file, when set, keeps all). */
const KEEP = 10_000;

export class LocalEventBus {
  private readonly subscribers = new Map<string, { pattern: EventPattern; handler: Subscriber }>();
  private readonly events: BusEvent[] = [];
  private readonly deliveries = new Set<Promise<void>>();
  private file: string | undefined;

  /**
   * Delivers matching events to `handler` from now on, under `name` (like a rule's name: a second
   * subscription with the same name replaces the first). Returns the unsubscribe function.
   */
  subscribe(name: string, pattern: EventPattern, handler: Subscriber): () => void {
    checkPattern(pattern);
    const entry = { pattern, handler };
    this.subscribers.set(name, entry);
    return () => {
      if (this.subscribers.get(name) === entry) this.subscribers.delete(name);
    };
  }

  /** Appends every published event to this JSON Lines file from now on (undefined: stop). */
  recordTo(file: string | undefined): void {
    this.file = file;
  }

  /** Accepts the entries as PutEvents would, and starts delivering them. */
  put(entries: readonly BusEntry[], region: string): BusEvent[] {
    const events = entries.map((entry): BusEvent => ({
      version: '0',
      id: randomUUID(),
      'detail-type': entry.detailType,
      source: entry.source,
      account: LOCAL_ACCOUNT,
      // EventBridge keeps whole seconds.
      time: new Date(entry.time).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      region,
      resources: [],
      // Through JSON, as on the wire: subscribers get their own copy.
      detail: JSON.parse(JSON.stringify(entry.detail)) as Record<string, unknown>,
    }));
    this.events.push(...events);
    if (this.events.length > KEEP) this.events.splice(0, this.events.length - KEEP);
    if (this.file && events.length > 0) appendFileSync(this.file, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    for (const event of events) {
      for (const [name, { pattern, handler }] of this.subscribers) {
        if (matchesPattern(pattern, event)) this.deliver(name, handler, event);
      }
    }
    return events;
  }

  /** What was published since the start (or the last clear), oldest first; optionally matching. */
  published(pattern?: EventPattern): BusEvent[] {
    return pattern ? this.events.filter((e) => matchesPattern(pattern, e)) : [...this.events];
  }

  clear(): void {
    this.events.length = 0;
  }

  /** Resolves when every delivery started so far has finished. */
  async idle(): Promise<void> {
    while (this.deliveries.size > 0) await Promise.allSettled([...this.deliveries]);
  }

  private deliver(name: string, handler: Subscriber, event: BusEvent): void {
    const delivery = Promise.resolve()
      .then(() => handler(event))
      .then(
        () => undefined,
        (error: unknown) => {
          const detail =
            error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
          writeLogLine({
            level: 'error',
            source: 'local-event-bus',
            msg: 'subscriber failed',
            subscriber: name,
            event_id: event.id,
            ...detail,
          });
        },
      )
      .finally(() => this.deliveries.delete(delivery));
    this.deliveries.add(delivery);
  }
}

const KEY = Symbol.for('gatehouse.localEventBus');

/** This process's bus. */
export function localEventBus(): LocalEventBus {
  const holder = globalThis as unknown as Record<symbol, LocalEventBus | undefined>;
  return (holder[KEY] ??= new LocalEventBus());
}

/** The in-process bus as the project's bus adapter (shared/adapters/event-bus.ts); every entry is accepted. */
export function localEventBusAdapter(busName: string, region: string): EventBus {
  return {
    name: busName,
    mode: 'local',
    putEntries(entries) {
      localEventBus().put(entries, region);
      return Promise.resolve(entries.map(() => ({})));
    },
  };
}
