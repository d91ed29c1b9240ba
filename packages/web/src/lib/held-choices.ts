import { useCallback, useState } from 'react';

/**
 * Choices saved as they are made (a box ticked, a radio or a select changed), shown as made until
 * their save settles. Such a control's value comes from the server; after the change event React
 * puts a controlled input back to that value, and the mutation's pending state renders only in a
 * later task, so without this the click is undone on screen (a lost click for a quick user, and
 * the wrong state for a screen reader) until the answer arrives. A failed save shows the server's
 * value again.
 *
 * `shown(key, fromServer)` is what the control displays; `hold(key, value)` is called in the change
 * handler, synchronously; `release(key)` in the save's `onSettled`.
 */
export function useHeldChoices<T>() {
  const [held, setHeld] = useState<ReadonlyMap<string, T>>(() => new Map());
  const shown = useCallback(
    (key: string, fromServer: T): T => (held.has(key) ? (held.get(key) as T) : fromServer),
    [held],
  );
  const hold = useCallback((key: string, value: T) => setHeld((map) => new Map(map).set(key, value)), []);
  const release = useCallback(
    (key: string) =>
      setHeld((map) => {
        if (!map.has(key)) return map;
        const next = new Map(map);
        next.delete(key);
        return next;
      }),
    [],
  );
  return { shown, hold, release };
}
