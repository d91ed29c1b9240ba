import type {
  CommandName,
  FlowboxCommand,
  FlowboxCommandCreateSchema,
  FlowboxCommandName,
} from '@flowbox/shared';
import type { z } from 'zod';
import type { ApiCommandRow, CommandRow } from './commands.repo.ts';

/*
 * A command's forms: the API's (what a user asks, what the screens show), the protocol's (what the
 * device is sent, docs/protocol.md) and the stored row's, and the way from one to the other.
 */

export type CommandInput = z.output<typeof FlowboxCommandCreateSchema>;

/** A command of the commands API: every stored command but a firmware update's (the update's own). */
export const isApiCommand = (row: CommandRow): row is ApiCommandRow => row.name !== 'update_firmware';

export const isValveCommand = (name: FlowboxCommandName) => name === 'valve_open' || name === 'valve_close';

/** The protocol command (docs/protocol.md) that carries each command of the API. */
export function protocolCommandOf(input: CommandInput): {
  name: CommandName;
  params: Record<string, unknown>;
} {
  switch (input.name) {
    case 'valve_open':
      return { name: 'open_valve', params: {} };
    case 'valve_close':
      return { name: 'close_valve', params: {} };
    case 'maintenance_on':
    case 'maintenance_off':
      return { name: 'set_maintenance_mode', params: { enabled: input.name === 'maintenance_on' } };
    case 'leak_detection_on':
      return {
        name: 'set_leak_detection_mode',
        params: { enabled: true, timeout_s: input.timeout_minutes * 60 },
      };
    case 'leak_detection_off':
      return { name: 'set_leak_detection_mode', params: { enabled: false } };
    case 'autotest':
      return { name: 'autotest', params: {} };
    case 'reboot':
      return { name: 'reboot', params: {} };
  }
}

/** The API input a stored command came from (its params keep the leak-detection timeout). */
export function commandInput(command: ApiCommandRow): CommandInput {
  if (command.name === 'leak_detection_on')
    return { name: 'leak_detection_on', timeout_minutes: Number(command.params.timeout_s) / 60 };
  return { name: command.name };
}

export function toApiCommand(row: ApiCommandRow): FlowboxCommand {
  return {
    id: row.id,
    flowbox_id: row.flowboxId,
    name: row.name,
    params: row.params,
    status: row.status,
    attempts: row.attempts,
    issued_at: row.issuedAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    result: row.result,
    issued_by: row.issuedBy,
  };
}
