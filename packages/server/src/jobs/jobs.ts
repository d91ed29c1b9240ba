/**
 * The periodic jobs of one server instance, all run the same way.
 *
 * Each job beats every `everyMs` (plus a random delay up to `jitterMs`, counted from the previous
 * beat, not from the end of the pass). A beat that comes while the job's previous pass still runs
 * is skipped and counted: one instance never runs two passes of one job at once. A failing pass is
 * counted and logged (at most once a minute per job, with the failures since the last line), never
 * thrown out of the timer; the next beat runs as usual. `stop` clears the timer and waits for the
 * running pass, so whatever the pass uses can be closed after it.
 *
 * This guard is per instance only. With several instances on one database each job runs on each of
 * them, and the passes share the work by claiming rows where they read them: FOR UPDATE SKIP LOCKED
 * on the due rows (commands, scheduled closings, safety closes, alert emails, subscription renewals)
 * or a transaction-scoped advisory lock (the alert sweep, device accounts). The claims stay in the
 * repos beside their queries; this module knows nothing of them.
 */

export type JobLog = { error: (obj: object, msg: string) => void };

export type Job = {
  /** Names the job in the log and in the metrics; one running job a name in a runner. */
  name: string;
  everyMs: number;
  /** Each beat comes up to this much later than `everyMs`, at random: instances drift apart. */
  jitterMs?: number;
  /** Runs a pass at start as well, not only after the first period. */
  passAtStart?: boolean;
  pass: () => Promise<unknown>;
};

/** Since the job started; durations in whole milliseconds. */
export type JobCounters = {
  passes: number;
  skipped_beats: number;
  failures: number;
  last_pass_ms: number;
  max_pass_ms: number;
  /** Every pass's duration added up: with `passes`, the mean pass. */
  total_pass_ms: number;
};

export type RunningJob = {
  readonly name: string;
  readonly counters: Readonly<JobCounters>;
  stop: () => Promise<void>;
};

export type JobRunnerOptions = {
  log: JobLog;
  /** A monotonic clock in milliseconds, for pass durations and the log's once-a-minute bound. */
  now?: () => number;
  /** In [0, 1): the jitter's draw. */
  random?: () => number;
};

const FAILURE_LOG_EVERY_MS = 60_000;

/** Starts jobs and keeps the list of those running, for the metrics and for stopping them all. */
export class JobRunner {
  private readonly running = new Map<string, RunningJob>();
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly options: JobRunnerOptions) {
    this.now = options.now ?? (() => performance.now());
    this.random = options.random ?? Math.random;
  }

  start(job: Job): RunningJob {
    if (this.running.has(job.name)) throw new Error(`job ${job.name} is running already`);
    const handle = runJob(job, { log: this.options.log, now: this.now, random: this.random }, () =>
      this.running.delete(job.name),
    );
    this.running.set(job.name, handle);
    return handle;
  }

  /** Each running job's counters, by name. */
  counters(): Record<string, JobCounters> {
    return Object.fromEntries([...this.running].map(([name, job]) => [name, { ...job.counters }]));
  }

  /** Stops every running job, waiting for their passes. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.running.values()].map((job) => job.stop()));
  }
}

/** The delay before the next beat: `everyMs`, plus up to `jitterMs`. */
export function beatDelay(job: Pick<Job, 'everyMs' | 'jitterMs'>, random: () => number): number {
  return job.everyMs + Math.floor(random() * (job.jitterMs ?? 0));
}

function runJob(job: Job, tools: Required<JobRunnerOptions>, onStopped: () => void): RunningJob {
  const counters: JobCounters = {
    passes: 0,
    skipped_beats: 0,
    failures: 0,
    last_pass_ms: 0,
    max_pass_ms: 0,
    total_pass_ms: 0,
  };
  const failureLog = { lastAt: -Infinity, unlogged: 0 };
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const fail = (error: unknown) => {
    counters.failures++;
    failureLog.unlogged++;
    const at = tools.now();
    if (at - failureLog.lastAt < FAILURE_LOG_EVERY_MS) return;
    tools.log.error({ err: error, job: job.name, failures: failureLog.unlogged }, `${job.name} failed`);
    failureLog.lastAt = at;
    failureLog.unlogged = 0;
  };
  const runPass = async () => {
    const startedAt = tools.now();
    try {
      await job.pass();
    } catch (error) {
      fail(error);
    } finally {
      const ms = Math.round(tools.now() - startedAt);
      counters.passes++;
      counters.last_pass_ms = ms;
      counters.max_pass_ms = Math.max(counters.max_pass_ms, ms);
      counters.total_pass_ms += ms;
    }
  };
  const beat = () => {
    if (running) {
      counters.skipped_beats++;
      return;
    }
    running = runPass().finally(() => (running = undefined));
  };
  const schedule = () => {
    timer = setTimeout(
      () => {
        schedule();
        beat();
      },
      beatDelay(job, tools.random),
    );
    // The process lives for its server, not for its timers.
    timer.unref();
  };

  schedule();
  if (job.passAtStart) beat();
  return {
    name: job.name,
    counters,
    stop: async () => {
      if (!stopped) {
        stopped = true;
        clearTimeout(timer);
        onStopped();
      }
      await running;
    },
  };
}
