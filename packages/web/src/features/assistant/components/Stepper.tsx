import { useLanguage } from '../../../lib/i18n/index.ts';
import { ASSISTANT_STEPS, reachable, type AssistantProgress, type AssistantStep } from '../progress.ts';

/**
 * The steps as an ordered list with a progress bar; the current one is `aria-current="step"`.
 * Steps already reachable can be revisited; later ones cannot be skipped to.
 */
export function Stepper({
  progress,
  onGo,
}: {
  progress: AssistantProgress;
  onGo: (step: AssistantStep) => void;
}) {
  const { t } = useLanguage();
  const current = ASSISTANT_STEPS.indexOf(progress.step);
  const percent = Math.round((current / (ASSISTANT_STEPS.length - 1)) * 100);
  return (
    <nav aria-label={t('assistant.steps')} className="mb-6">
      <div
        role="progressbar"
        aria-label={t('assistant.progress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mb-3 h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div className="h-full rounded-full bg-sky-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <ol className="grid grid-cols-3 gap-2 text-sm sm:grid-cols-6">
        {ASSISTANT_STEPS.map((step, index) => {
          const isCurrent = index === current;
          const done = index < current;
          const open = !isCurrent && reachable(step, progress) && step !== 'done';
          const label = (
            <>
              <span
                aria-hidden="true"
                className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                  isCurrent
                    ? 'bg-sky-700 text-white dark:bg-sky-500 dark:text-slate-950'
                    : done
                      ? 'bg-emerald-600 text-white'
                      : 'bg-slate-200 text-slate-600 dark:bg-slate-800 dark:text-slate-300'
                }`}
              >
                {done ? '✓' : index + 1}
              </span>
              <span className={isCurrent ? 'font-semibold' : ''}>{t(`assistant.step.${step}`)}</span>
              {done && <span className="sr-only">{t('assistant.step_done')}</span>}
            </>
          );
          return (
            <li key={step} aria-current={isCurrent ? 'step' : undefined}>
              {open ? (
                <button
                  type="button"
                  onClick={() => onGo(step)}
                  className="flex w-full items-center gap-2 rounded-lg p-1 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600 dark:hover:bg-slate-800"
                >
                  {label}
                </button>
              ) : (
                <span className="flex items-center gap-2 p-1 text-slate-700 dark:text-slate-200">
                  {label}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
