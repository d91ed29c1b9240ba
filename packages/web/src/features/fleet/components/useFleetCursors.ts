import { useState } from 'react';
import type { FleetFilters } from '../api/list-fleet.ts';

/**
 * Keyset pages: the cursors of the pages up to the one shown, so "Previous" goes back; a change of
 * filters starts again from the first page.
 */
export function useFleetCursors(filters: FleetFilters) {
  const filterKey = JSON.stringify(filters);
  const [trail, setTrail] = useState<{ key: string; cursors: (string | undefined)[] }>({
    key: filterKey,
    cursors: [undefined],
  });
  const cursors = trail.key === filterKey ? trail.cursors : [undefined];
  return {
    cursor: cursors.at(-1),
    pageNumber: cursors.length,
    previous: () => setTrail({ key: filterKey, cursors: cursors.slice(0, -1) }),
    next: (cursor: string) => setTrail({ key: filterKey, cursors: [...cursors, cursor] }),
  };
}
