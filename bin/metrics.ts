/**
 * `npm run metrics [-- LOG_PATH] [--minutes N]`: the metrics the local service wrote to its log
 * in the last N minutes (15 unless told), as a table: metric, dimensions, unit, sum, count, max.
 *
 * The log is the file LOG_PATH names, or LOG_FILE (where the service writes its log lines and its
 * metric lines when set: `LOG_FILE=.data/gatehouse.log npm start`). The tests' server writes to
 * .test-logs/test-run.jsonl.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { metricPointsOf, summarise, summaryTable, type MetricPoint } from './metric-lines.js';

function usage(problem: string): never {
  console.error(`${problem}
usage: npm run metrics [-- LOG_PATH] [--minutes N]
  LOG_PATH  the service's log (default: $LOG_FILE); start the service with LOG_FILE=.data/gatehouse.log npm start`);
  process.exit(2);
}

const args = process.argv.slice(2);
let minutes = 15;
let path: string | undefined;
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === '--minutes') {
    minutes = Number(args[++i]);
    if (!Number.isFinite(minutes) || minutes <= 0) usage(`--minutes must be a positive number, not "${args[i]}"`);
  } else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
  else path = arg;
}
path ??= process.env.LOG_FILE;
if (!path) usage('no log to read: give its path, or set LOG_FILE');
if (!existsSync(path)) usage(`${path}: no such file`);

const sinceMs = Date.now() - minutes * 60_000;
const points: MetricPoint[] = [];
for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
  points.push(...metricPointsOf(line).filter((p) => p.at >= sinceMs));
}
const rows = summarise(points, sinceMs);
console.log(`Metrics in ${path}, the last ${minutes} minutes (since ${new Date(sinceMs).toISOString()}):\n`);
console.log(rows.length > 0 ? summaryTable(rows) : '(no metric lines in that time)');
