import type { FlowboxCommand } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { flowboxKey, flowboxPath, type FlowboxRef } from './get-flowbox.ts';

export const commandsKey = (ref: FlowboxRef) => [...flowboxKey(ref), 'commands'] as const;

/** The 50 latest commands, newest first (the server's order). */
export const listCommands = (ref: FlowboxRef) =>
  api.get<{ items: FlowboxCommand[] }>(`${flowboxPath(ref)}/commands/list`);

export const commandsQueryOptions = (ref: FlowboxRef) =>
  queryOptions({ queryKey: commandsKey(ref), queryFn: () => listCommands(ref) });

export const useCommands = (ref: FlowboxRef) => useQuery(commandsQueryOptions(ref));
