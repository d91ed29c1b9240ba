import { useTranslation } from 'react-i18next';

export function Spinner({ size = 'md', label }: { size?: 'sm' | 'md'; label?: string }) {
  const dimension = size === 'sm' ? 'h-4 w-4 border-2' : 'h-8 w-8 border-[3px]';
  return (
    <span
      className={`inline-block animate-spin rounded-full border-current border-t-transparent ${dimension}`}
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    />
  );
}

/** A centred spinner announced to screen readers, for a page or section that is loading. */
export function LoadingState() {
  const { t } = useTranslation();
  return (
    <div className="flex justify-center py-16 text-sky-700 dark:text-sky-400">
      <Spinner label={t('common.loading')} />
    </div>
  );
}
