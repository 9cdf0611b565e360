/**
 * Where every log line goes: standard output (errors to standard error), as Lambda and `npm
 * start` expect, or a file when LOG_FILE names one (the test run sets it, so a passing run prints
 * only its summary; the lines are all in the file). Read at each write: no configuration to load.
 */
import { appendFileSync } from 'node:fs';

/** Writes one line of JSON text already made (the logger's, shared/log.ts). */
export function writeLogText(json: string, level: string = 'info'): void {
  const text = `${json}\n`;
  const file = process.env.LOG_FILE;
  if (file) appendFileSync(file, text);
  else (/^(error|critical)$/i.test(level) ? process.stderr : process.stdout).write(text);
}

export function writeLogLine(line: Record<string, unknown>, level: string = String(line.level ?? 'info')): void {
  writeLogText(JSON.stringify(line), level);
}
