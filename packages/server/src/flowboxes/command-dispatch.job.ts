import type { Job } from '../jobs/index.ts';
import type { CommandsService } from './commands.service.ts';

/** How often each instance sends, re-sends and expires the due commands (docs/devices.md "Commands"). */
export const COMMAND_DISPATCH_MS = 1000;

/** The commands' dispatch: each pass claims the due rows (FOR UPDATE SKIP LOCKED). */
export function commandDispatchJob(commands: CommandsService, everyMs = COMMAND_DISPATCH_MS): Job {
  return { name: 'command_dispatch', everyMs, pass: () => commands.dispatchDue() };
}
