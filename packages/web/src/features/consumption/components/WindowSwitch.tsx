import { CONSUMPTION_WINDOWS, type ConsumptionWindow } from '@flowbox/shared';
import { useId, useRef, type KeyboardEvent } from 'react';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useAddressQuery } from '../../../lib/params.ts';

const isWindow = (value: string | null): value is ConsumptionWindow =>
  (CONSUMPTION_WINDOWS as readonly (string | null)[]).includes(value);

/** The graph window kept in the URL (`?window=week`), so a reload or a shared link shows the same. */
export function useWindowParam(): [ConsumptionWindow, (window: ConsumptionWindow) => void] {
  const [params, change] = useAddressQuery();
  const value = params.get('window');
  const window: ConsumptionWindow = isWindow(value) ? value : 'day';
  const setWindow = (next: ConsumptionWindow) => change({ window: next }, { preventScrollReset: true });
  return [window, setWindow];
}

/**
 * Day / week / month / year as a radio group (WAI-ARIA radio pattern): Tab reaches the chosen
 * one, arrows move and choose, Home/End go to the ends.
 */
export function WindowSwitch({
  value,
  onChange,
}: {
  value: ConsumptionWindow;
  onChange: (window: ConsumptionWindow) => void;
}) {
  const { t } = useLanguage();
  const labelId = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const choose = (index: number) => {
    const count = CONSUMPTION_WINDOWS.length;
    const next = CONSUMPTION_WINDOWS[(index + count) % count]!;
    onChange(next);
    buttons.current[(index + count) % count]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: CONSUMPTION_WINDOWS.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    choose(target);
  };
  return (
    <div className="flex items-center gap-2">
      <span id={labelId} className="sr-only">
        {t('consumption.window')}
      </span>
      <div
        role="radiogroup"
        aria-labelledby={labelId}
        className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-600"
      >
        {CONSUMPTION_WINDOWS.map((window, index) => {
          const checked = window === value;
          return (
            <button
              key={window}
              ref={(element) => {
                buttons.current[index] = element;
              }}
              type="button"
              role="radio"
              aria-checked={checked}
              tabIndex={checked ? 0 : -1}
              title={t(`consumption.window_hint.${window}`)}
              onClick={() => onChange(window)}
              onKeyDown={(event) => onKeyDown(event, index)}
              className={`rounded-md px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-sky-600 ${
                checked
                  ? 'bg-sky-700 text-white dark:bg-sky-500 dark:text-slate-950'
                  : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
              }`}
            >
              {t(`consumption.window.${window}`)}
            </button>
          );
        })}
      </div>
    </div>
  );
}
