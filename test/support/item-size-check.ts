/**
 * The item-size check of the test run (issue 39): the local stack's DynamoDB endpoint is a proxy
 * (shared/local/dynamodb-meter.ts, sizes only) that keeps the size of every item the tests' requests
 * and workers write, and the run fails at its end when any exceeds 64 KB; the largest is named
 * either way. On by default; GATEHOUSE_ITEM_SIZE_CHECK=off leaves DynamoDB Local unproxied.
 *
 * Sizes are DynamoDB's (attribute names and values in bytes), of the item as stored after the
 * write: a put's from its request, an update's read back once it answered. Writes made straight to
 * DynamoDB Local's own endpoint (a test that starts a stack of its own) are not seen.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { DynamoDbFront } from '../../shared/local/stack.js';
import {
  startDynamoDbMeter,
  type DynamoDbMeter,
  type WrittenItem,
  type WrittenSizes,
} from '../../shared/local/dynamodb-meter.js';

export interface ItemSizeReport {
  limit: number;
  /** Items written. */
  count: number;
  largest: WrittenItem | null;
  /** Items over the limit (the first 20). */
  over: WrittenItem[];
}

export const itemSizeCheckOn = () => process.env.GATEHOUSE_ITEM_SIZE_CHECK !== 'off';

export function itemSizeReport(sizes: WrittenSizes): ItemSizeReport {
  return { limit: sizes.limit, count: sizes.count(), largest: sizes.largest() ?? null, over: sizes.over() };
}

const describe = (i: WrittenItem) => `${i.entity} (${i.key}): ${i.bytes.toLocaleString('en')} bytes`;

/** What the run prints, and whether it passes: no item over the limit. */
export function judgeItemSizes(report: ItemSizeReport): { ok: boolean; message: string } {
  const largest = report.largest ? `the largest: ${describe(report.largest)}` : 'none written';
  const head = `item sizes: ${report.count.toLocaleString('en')} items written, ${largest}`;
  if (report.over.length === 0)
    return { ok: true, message: `${head}; none over ${report.limit.toLocaleString('en')} bytes` };
  return {
    ok: false,
    message: `${head}\nitems over ${report.limit.toLocaleString('en')} bytes (${report.limit / 1024} KB):\n${report.over.map((i) => `  ${describe(i)}`).join('\n')}`,
  };
}

/** The stack's `dynamodbFront` that keeps the sizes, and the report once every write is seen. */
export function itemSizeWatch(): {
  front: (endpoint: string) => Promise<DynamoDbFront>;
  report: () => Promise<ItemSizeReport | undefined>;
  close: () => Promise<void>;
} {
  let meter: DynamoDbMeter | undefined;
  return {
    front: async (endpoint) => {
      meter = await startDynamoDbMeter(endpoint, { count: false });
      // Sizes come from writes: the handlers' reads go past it (shared/local/dynamodb-reads.ts).
      return { url: meter.url, onWrite: (listener) => meter?.onWrite(listener), writesOnly: true };
    },
    report: async () => {
      if (!meter) return undefined;
      await meter.settle();
      return itemSizeReport(meter.sizes);
    },
    close: async () => meter?.close(),
  };
}

/** The stack process (stack-process.ts) hands its report over in this file. */
export const ITEM_SIZES_FILE_ENV = 'GATEHOUSE_ITEM_SIZES_FILE';

export function writeItemSizeReport(file: string, report: ItemSizeReport | undefined): void {
  if (report) writeFileSync(file, JSON.stringify(report));
}

export function readItemSizeReport(file: string): ItemSizeReport | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ItemSizeReport;
  } catch {
    return undefined;
  }
}

/** Prints the check's line, or throws it (failing the run) when an item is over the limit. */
export function enforceItemSizes(report: ItemSizeReport | undefined): void {
  if (!report) return;
  const { ok, message } = judgeItemSizes(report);
  if (!ok) throw new Error(message);
  console.log(message);
}
