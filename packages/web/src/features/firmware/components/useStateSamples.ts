import type { Rollout } from '@flowbox/shared';
import { hashKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { rolloutQueryOptions } from '../api/get-rollout.ts';
import { addSample, type StateSample } from '../timeline.ts';

/**
 * The rollout's counts each time they are read (every poll), as the chart's samples: the first
 * from what the cache holds when the page opens, then one per successful read.
 */
export function useStateSamples(rolloutId: string): readonly StateSample[] {
  const queryClient = useQueryClient();
  const { queryKey } = rolloutQueryOptions(rolloutId);
  const [samples, setSamples] = useState<readonly StateSample[]>(() => {
    const state = queryClient.getQueryState<Rollout>(queryKey);
    return state?.data ? addSample([], state.data.counts, state.dataUpdatedAt) : [];
  });
  const hash = hashKey(queryKey);
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'success' || event.query.queryHash !== hash)
          return;
        const rollout = event.query.state.data as Rollout | undefined;
        const at = event.query.state.dataUpdatedAt;
        if (rollout) setSamples((previous) => addSample(previous, rollout.counts, at));
      }),
    [queryClient, hash],
  );
  return samples;
}
