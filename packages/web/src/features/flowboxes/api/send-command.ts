import type { FlowboxCommand, FlowboxCommandCreateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { flowboxPath, type FlowboxRef } from './get-flowbox.ts';
import { commandsKey } from './list-commands.ts';
import { withCommand } from '../live/live-cache.ts';

/** Answered 202 at once: the device's acknowledgement and outcome arrive on the live channel. */
export const sendCommand = (ref: FlowboxRef, input: FlowboxCommandCreateInput) =>
  api.post<FlowboxCommand>(`${flowboxPath(ref)}/commands/send`, input);

export function useSendCommand(ref: FlowboxRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FlowboxCommandCreateInput) => sendCommand(ref, input),
    onSuccess: (command) =>
      queryClient.setQueryData(commandsKey(ref), (list: { items: FlowboxCommand[] } | undefined) =>
        list ? withCommand(list, command) : list,
      ),
  });
}
