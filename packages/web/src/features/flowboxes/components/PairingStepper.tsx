import { useLanguage } from '../../../lib/i18n/index.ts';

const STEPS = ['prepare', 'device', 'finalise'] as const;

/** spec §2's three-step pairing flow; the current step is announced as such. */
export function PairingStepper({ current }: { current: 1 | 2 | 3 }) {
  const { t } = useLanguage();
  return (
    <ol aria-label={t('pairing.steps')} className="mb-5 grid grid-cols-3 gap-2">
      {STEPS.map((name, index) => {
        const step = index + 1;
        const state = step < current ? 'done' : step === current ? 'current' : 'todo';
        return (
          <li
            key={name}
            aria-current={state === 'current' ? 'step' : undefined}
            className={`border-t-4 pt-2 text-xs ${
              state === 'todo'
                ? 'border-slate-200 text-slate-500 dark:border-slate-700 dark:text-slate-400'
                : state === 'current'
                  ? 'border-sky-600 font-semibold text-sky-800 dark:border-sky-400 dark:text-sky-300'
                  : 'border-emerald-600 text-emerald-800 dark:border-emerald-500 dark:text-emerald-300'
            }`}
          >
            <span className="block">{step}/3</span>
            <span className="block">{t(`pairing.step.${name}`)}</span>
            {state !== 'todo' && <span className="sr-only">({t(`pairing.step_${state}`)})</span>}
          </li>
        );
      })}
    </ol>
  );
}
