import { MESSAGES_EN } from '@flowbox/shared';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasStatus, statusOf } from './errors.ts';
import { CODE_OF_CLIENT_STATUS } from './http/error-handler.ts';

/*
 * One status table (issue 31): every code the server answers with has its status in STATUS_OF
 * (errors.ts), and nothing else chooses the status of an error answer.
 */

const SRC = import.meta.dirname;

/** The catalogue's codes the server never answers with, so without a status, each with why. */
const NOT_ANSWERED: Record<string, string> = {
  'errors.network': "the web app's own, when no answer arrives at all (web lib/api-client.ts)",
  'errors.reset_password_failed': 'spec §8 text; a failed reset answers errors.invalid_token',
  'errors.user_create_failed': 'spec §8 text; a refused creation answers its field or rule',
  'errors.user_update_failed': 'spec §8 text; a refused update answers its field or rule',
  'errors.firmware_update_failed': "spec §8 text; a failed update is the command's state, not an answer",
};

/** Files that set a status outside the table, each with why. */
const OWN_STATUSES: Record<string, string> = {
  // The range rule of RFC 9110 §14, whose 416 files.http.ts turns into RangeNotSatisfiable.
  'files/ranges.ts': 'a range answer, not an error answer',
  // The metrics port answers Prometheus in plain text, outside the API and its error shape.
  'http/metrics.ts': 'the metrics port',
};

/** The server's run-time files: tests and their fixtures stand outside (docs/architecture.md). */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['test', 'fuzz'].includes(entry.name) ? [] : sourceFiles(path);
    const isTest = entry.name.endsWith('.test.ts') || entry.name.endsWith('testing.ts');
    return entry.name.endsWith('.ts') && !isTest ? [path] : [];
  });
}

/** Where a file sets a status itself: a literal or anything but statusOf, for an error status. */
function ownStatuses(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  const setters = [
    /\.\s*(?:code|status|writeHead)\((?!\s*statusOf\()(?!\s*[123]\d\d\b)[^)]*\)/g,
    /\bstatusCode\s*(?:=(?!=)|:)(?!\s*statusOf\()[^;,}]*/g,
    /\bstatus\s*:\s*[45]\d\d\b/g,
  ];
  return setters.flatMap((pattern) => code.match(pattern) ?? []);
}

describe('the status table', () => {
  it('gives every catalogue error code the server answers with its status', () => {
    const codes = Object.keys(MESSAGES_EN).filter((key) => key.startsWith('errors.'));
    const withoutStatus = codes.filter((code) => !hasStatus(code));
    expect(withoutStatus.sort()).toEqual(Object.keys(NOT_ANSWERED).sort());
  });

  it('keeps the codes without a status out of the server', () => {
    const named = sourceFiles().flatMap((file) =>
      Object.keys(NOT_ANSWERED)
        .filter((code) => readFileSync(file, 'utf8').includes(`'${code}'`))
        .map((code) => `${relative(SRC, file)}: ${code}`),
    );
    expect(named).toEqual([]);
  });

  it('answers a client status a plugin raises with a code of that status', () => {
    for (const [status, code] of Object.entries(CODE_OF_CLIENT_STATUS))
      expect(statusOf(code!), code).toBe(Number(status));
  });

  it('is the only place an error answer takes its status from', () => {
    const found = sourceFiles()
      .map((file) => relative(SRC, file))
      .filter((file) => !(file in OWN_STATUSES) && file !== 'errors.ts')
      .flatMap((file) => ownStatuses(readFileSync(join(SRC, file), 'utf8')).map((hit) => `${file}: ${hit}`));
    expect(found).toEqual([]);
  });

  it('would see a status set by hand', () => {
    expect(ownStatuses('reply.status(415).send(body)')).toHaveLength(1);
    expect(ownStatuses('reply.code(status).send(body)')).toHaveLength(1);
    expect(ownStatuses('readonly statusCode = 400;')).toHaveLength(1);
    expect(ownStatuses("X: { status: 415, code: 'errors.validation' }")).toHaveLength(1);
    expect(ownStatuses("reply.status(statusOf('errors.not_found')).send(body)")).toEqual([]);
    expect(ownStatuses('reply.code(204).send()')).toEqual([]);
  });
});
