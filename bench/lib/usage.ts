import { readFileSync } from 'node:fs';

/*
 * What a process, or the whole machine, has used so far, read from Linux /proc: the benches measure
 * the server, the broker and the database's backends apart from the load generator on the same cores.
 */

/** User + system CPU of a process so far, from Linux /proc (0 if it has gone). */
export function processCpuUs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
}

/** Resident memory of a process in bytes (VmRSS; 0 if it has gone). */
export function processRssBytes(pid: number): number {
  return statusKb(pid, 'VmRSS') * 1024;
}

/**
 * Memory of a process that no other process shares, in bytes (smaps_rollup; 0 if it has gone or
 * cannot be read): for PostgreSQL backends, whose RSS counts the shared buffers in each of them.
 */
export function processPrivateBytes(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
    return (kb('Private_Clean') + kb('Private_Dirty')) * 1024;
  } catch {
    return 0;
  }
}

function statusKb(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Busy and total CPU ticks of the whole machine (Linux /proc/stat), to see what the database takes. */
export function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}
