import type { Flowbox, FlowboxCommand, LiveMessage } from '@flowbox/shared';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { flowboxInfoKey, type FlowboxRef } from '../api/get-flowbox.ts';
import { flowboxListKey } from '../../zones/index.ts';

type FlowboxList = { items: Flowbox[] };
type CommandList = { items: FlowboxCommand[] };

/** The server answers at most this many commands; a pushed one must not grow the list beyond. */
const COMMAND_LIST_MAX = 50;

// Keys are ['customers', c, 'sites', s, 'buildings', b, 'zones', z, 'flowboxes', id | 'list', …]
// (features/zones zoneKey). Removals and commands do not name the building, so they match by position.
const ZONE_ID = 7;
const FLOWBOXES = 8;
const FLOWBOX_ID = 9;

export const isFlowboxesKey = (key: QueryKey) => key[FLOWBOXES] === 'flowboxes';
const isZoneFlowboxes = (key: QueryKey, zoneId: string) => isFlowboxesKey(key) && key[ZONE_ID] === zoneId;
const isFlowboxQuery = (key: QueryKey, flowboxId: string, leaf: string) =>
  isFlowboxesKey(key) && key[FLOWBOX_ID] === flowboxId && key[FLOWBOX_ID + 1] === leaf;

/**
 * After a gap in the live channel: what it would have pushed (flowboxes, their commands, and the
 * zones whose valve follows them) is read again; nothing else depends on it.
 */
export function refreshAfterGap(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: ({ queryKey }) =>
      isFlowboxesKey(queryKey) || (queryKey[ZONE_ID - 1] === 'zones' && queryKey[FLOWBOXES] === 'info'),
  });
}

export function refOf(flowbox: Flowbox): FlowboxRef {
  return {
    customerId: flowbox.customer_id,
    siteId: flowbox.site_id,
    buildingId: flowbox.building_id,
    zoneId: flowbox.zone_id,
    flowboxId: flowbox.id,
  };
}

/** The newest command first; a known id is replaced where it stands. */
export function withCommand(list: CommandList, command: FlowboxCommand): CommandList {
  if (list.items.some((item) => item.id === command.id))
    return { items: list.items.map((item) => (item.id === command.id ? command : item)) };
  return { items: [command, ...list.items].slice(0, COMMAND_LIST_MAX) };
}

function withFlowbox(list: FlowboxList, flowbox: Flowbox): FlowboxList {
  if (list.items.some((item) => item.id === flowbox.id))
    return { items: list.items.map((item) => (item.id === flowbox.id ? flowbox : item)) };
  return { items: [...list.items, flowbox] };
}

/** The zone's valve and modes follow its flowbox's (the zone overview shows them). */
function zoneStateChanged(before: Flowbox | undefined, after: Flowbox): boolean {
  return (
    before !== undefined &&
    (before.valve !== after.valve ||
      before.maintenance_mode !== after.maintenance_mode ||
      before.leak_detection_mode !== after.leak_detection_mode)
  );
}

/**
 * Brings the cached queries up to date with one pushed message, so open screens change without a
 * reload. Only queries already in the cache are touched: a provider manager receives every device's
 * changes, and caching screens nobody opened would only grow memory.
 */
export function applyLiveMessage(queryClient: QueryClient, message: LiveMessage): void {
  if (message.type === 'flowbox') {
    const { flowbox } = message;
    const ref = refOf(flowbox);
    const infoKey = flowboxInfoKey(ref);
    const listKey = flowboxListKey(ref);
    const before =
      queryClient.getQueryData<Flowbox>(infoKey) ??
      queryClient.getQueryData<FlowboxList>(listKey)?.items.find((item) => item.id === flowbox.id);
    if (queryClient.getQueryData(infoKey)) queryClient.setQueryData(infoKey, flowbox);
    queryClient.setQueryData<FlowboxList>(listKey, (list) => list && withFlowbox(list, flowbox));
    if (zoneStateChanged(before, flowbox))
      void queryClient.invalidateQueries({ queryKey: [...listKey.slice(0, FLOWBOXES), 'info'], exact: true });
  } else if (message.type === 'flowbox_removed') {
    queryClient.setQueriesData<FlowboxList>(
      {
        predicate: (query) =>
          isZoneFlowboxes(query.queryKey, message.zone_id) && query.queryKey[FLOWBOX_ID] === 'list',
      },
      (list) => list && { items: list.items.filter((item) => item.id !== message.flowbox_id) },
    );
  } else if (message.type === 'command') {
    const { command } = message;
    queryClient.setQueriesData<CommandList>(
      { predicate: (query) => isFlowboxQuery(query.queryKey, command.flowbox_id, 'commands') },
      (list) => list && withCommand(list, command),
    );
  }
}
