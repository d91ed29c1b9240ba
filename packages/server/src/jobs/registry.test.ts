import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Job, RunningJob } from './jobs.ts';
import { instanceJobs, startJobs, type JobParts } from './registry.ts';

/*
 * docs/architecture.md "Jobs" names exactly the jobs server.ts starts, with their periods and the
 * files that declare them: a job added, renamed or moved fails here until the table says so.
 */

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');
const ARCHITECTURE = join(SRC, '../../../docs/architecture.md');

type Row = { name: string; period: string; file: string };

/** The rows of the table in the "## Jobs" section: each row's first cell is one job's name. */
function tableRows(): Row[] {
  const text = readFileSync(ARCHITECTURE, 'utf8');
  const section = text.slice(
    text.indexOf('\n## Jobs\n'),
    text.indexOf('\n## ', text.indexOf('\n## Jobs\n') + 1),
  );
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [name, period, declaredIn] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim());
      return {
        name: /^`([a-z_]+)`$/.exec(name!)?.[1] ?? `not one name: ${name}`,
        period: period!,
        file: /^`([^`]+)`/.exec(declaredIn!)?.[1] ?? `no file: ${declaredIn}`,
      };
    });
}

const UNITS = { s: 1000, min: 60_000, h: 3_600_000 } as const;

/** "15 s", "10 min", "1 h" as milliseconds. */
function periodMs(period: string): number {
  const [amount, unit] = period.split(' ');
  return Number(amount) * (UNITS[unit as keyof typeof UNITS] ?? NaN);
}

/** Every `*.job.ts` under src, as a path from src. */
function jobFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : jobFiles(path);
    return entry.name.endsWith('.job.ts') ? [relative(SRC, path)] : [];
  });
}

/**
 * Every optional job on: a relay (emails) and a broker with dynamic security (accounts). The jobs
 * are only built, never run, so each part is a stand-in.
 */
function everyJob(): Job[] {
  const parts = {
    services: {},
    db: {},
    smtp: true,
    messaging: { ingest: {}, probeDelivery: () => undefined, accounts: {} },
  } as unknown as JobParts;
  return instanceJobs(parts);
}

describe('the job registry (jobs/registry.ts)', () => {
  it('is the job table of docs/architecture.md: the same names, periods and declaring files', () => {
    const rows = tableRows();
    const jobs = everyJob();
    expect(rows.map((row) => row.name).sort()).toEqual(jobs.map((job) => job.name).sort());
    for (const job of jobs) {
      const row = rows.find((r) => r.name === job.name)!;
      expect({ job: job.name, everyMs: periodMs(row.period) }).toEqual({
        job: job.name,
        everyMs: job.everyMs,
      });
      // One way to name a job: snake case, declared in <domain>/<its name in kebab case>.job.ts.
      expect(job.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(row.file).toMatch(new RegExp(`^[a-z-]+/${job.name.replaceAll('_', '-')}\\.job\\.ts$`));
      expect(existsSync(join(SRC, row.file)), row.file).toBe(true);
    }
  });

  it('lists every *.job.ts of the server', () => {
    expect(jobFiles().sort()).toEqual(
      tableRows()
        .map((row) => row.file)
        .sort(),
    );
  });

  it("starts device messaging's jobs first, so they stop last: after the jobs that send commands through it", () => {
    const names = everyJob().map((job) => job.name);
    const messaging = ['delivery_probe', 'command_dispatch', 'heartbeat_check', 'device_accounts_reconcile'];
    expect(names.slice(0, messaging.length)).toEqual(messaging);
  });

  it('stops the jobs it started, last started first', async () => {
    const stopped: string[] = [];
    const runner = {
      start: (job: Job): RunningJob => ({
        name: job.name,
        counters: {
          passes: 0,
          skipped_beats: 0,
          failures: 0,
          last_pass_ms: 0,
          max_pass_ms: 0,
          total_pass_ms: 0,
        },
        stop: async () => void stopped.push(job.name),
      }),
    };
    const job = (name: string): Job => ({ name, everyMs: 1000, pass: async () => undefined });
    const stop = startJobs(runner, [job('a'), job('b'), job('c')]);
    await stop();
    expect(stopped).toEqual(['c', 'b', 'a']);
  });
});
