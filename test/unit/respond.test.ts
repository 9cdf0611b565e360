import { describe, expect, it } from 'vitest';
import { ConflictError, RequestValidationError, ServiceUnavailableError } from '../../shared/http/errors.js';
import { errorResult } from '../../shared/http/respond.js';
import { createLogger } from '../../shared/log.js';

const quiet = createLogger({}, 'error');
const silent = { ...quiet, error: () => {}, warn: () => {} };

describe('error bodies', () => {
  it('a fault is a 500 that names the request and shows nothing of the error', () => {
    const err = new Error('connect ECONNREFUSED 10.0.0.7:8000 at Socket.connect (/var/task/index.mjs:1:2)');
    const res = errorResult(err, 'req-123', silent);
    expect(res.statusCode).toBe(500);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Internal Server Error (request req-123)' });
    expect(res.body).not.toMatch(/ECONNREFUSED|10\.0\.0\.7|index\.mjs/);
  });

  it('a client error carries its message as detail', () => {
    const res = errorResult(new ConflictError('Already there'), 'r', silent);
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Already there' });
  });

  it('a validation error lists its issues', () => {
    const res = errorResult(
      new RequestValidationError([{ loc: ['query', 'limit'], msg: 'too big', type: 'maximum' }]),
      'r',
      silent,
    );
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body)).toEqual({ detail: [{ loc: ['query', 'limit'], msg: 'too big', type: 'maximum' }] });
  });

  it('a deliberate 503 keeps its status and says which request', () => {
    const res = errorResult(new ServiceUnavailableError('No speech recogniser installed'), 'req-9', silent);
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body).detail).toBe('No speech recogniser installed (request req-9)');
  });
});

describe('logs', () => {
  it('never write secrets', () => {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    // To standard output, as in Lambda (the test run sends logs to a file otherwise).
    const logFile = process.env.LOG_FILE;
    delete process.env.LOG_FILE;
    process.stdout.write = (chunk: string) => (lines.push(chunk), true);
    try {
      createLogger({}, 'debug').info('login', {
        password: 'hunter2',
        authorization: 'Bearer abc',
        api_key: 'k',
        email: 'a@b.c',
      });
    } finally {
      process.stdout.write = write;
      if (logFile !== undefined) process.env.LOG_FILE = logFile;
    }
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({
      message: 'login',
      email: 'a@b.c',
      password: '[redacted]',
      authorization: '[redacted]',
      api_key: '[redacted]',
    });
    expect(lines[0]).not.toMatch(/hunter2|Bearer abc/);
  });

  it('never write a credential of a URL, in the message, a field or an error', () => {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const logFile = process.env.LOG_FILE;
    delete process.env.LOG_FILE;
    const writeError = process.stderr.write.bind(process.stderr);
    process.stdout.write = (chunk: string) => (lines.push(chunk), true);
    process.stderr.write = (chunk: string) => (lines.push(chunk), true);
    const url = 'https://u:pw9@feeds.example/x.csv?token=tok9&format=csv';
    try {
      createLogger({}, 'debug').info(`polled ${url}`, { source: url, nested: { urls: [url] } });
      createLogger({}, 'debug').error('poll failed', { err: new Error(`GET ${url}: 503`) });
    } finally {
      process.stdout.write = write;
      process.stderr.write = writeError;
      if (logFile !== undefined) process.env.LOG_FILE = logFile;
    }
    expect(lines.join('')).not.toMatch(/pw9|tok9|u:/);
    const shown = 'https://REDACTED:REDACTED@feeds.example/x.csv?token=REDACTED&format=csv';
    expect(JSON.parse(lines[0]!)).toMatchObject({
      message: `polled ${shown}`,
      source: shown,
      nested: { urls: [shown] },
    });
    expect(JSON.parse(lines[1]!).error.message).toBe(`GET ${shown}: 503`);
  });
});
