/**
 * The local mail folder is read by other processes (the test run's mail reader, `npm run mail`)
 * while the SMTP stand-in writes to it: a message must appear whole or not at all, or a reader
 * that lists the folder at the wrong moment parses an empty message and never finds its mail.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LocalService } from '../../shared/local/process.js';
import { SmtpMailer, startSmtpLocal } from '../../shared/local/smtp.js';

let dir: string;
let smtp: LocalService;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-smtp-'));
  smtp = await startSmtpLocal({ directory: dir });
});

afterAll(async () => {
  await smtp?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A reader in another process, as the test run's mail reader is: lists and reads the folder in a tight loop until told to stop. */
const READER = `
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const dir = process.argv[1];
const seen = [];
let reading = true;
process.stdin.on('data', () => { reading = false; });
(function loop() {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    seen.push({ file, to: /^To: .+$/m.test(text), length: text.length });
  }
  if (reading) setImmediate(loop);
  else process.stdout.write(JSON.stringify(seen), () => process.exit(0));
})();
`;

it('shows every message in the folder whole, whenever a reader in another process lists it', async () => {
  const reader = spawn(process.execPath, ['-e', READER, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  reader.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const done = once(reader, 'exit');
  const mailer = new SmtpMailer(smtp.endpoint);
  const body = 'x'.repeat(2_000_000);
  for (let i = 0; i < 20; i++)
    await mailer.send({ to: [`reader-${i}@example.com`], subject: `Message ${i}`, text: body });
  reader.stdin.write('stop');
  await done;
  const seen = JSON.parse(out) as { file: string; to: boolean; length: number }[];
  const files = readdirSync(dir);
  expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(20);
  expect(files.filter((f) => !f.endsWith('.eml'))).toEqual([]);
  expect(seen.length).toBeGreaterThan(20);
  expect(seen.filter((s) => !s.to || s.length < 2_000_000)).toEqual([]);
}, 60_000);
