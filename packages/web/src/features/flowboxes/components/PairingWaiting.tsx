import type { Flowbox } from '@flowbox/shared';
import { Spinner } from '../../../components/Spinner.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useLiveStatus } from '../../../lib/live.ts';

/** Step 2/3 "pairing on the device": what the installer does; the window moves on when the device announces itself. */
export function PairingWaiting({ flowbox }: { flowbox: Flowbox }) {
  const { t } = useLanguage();
  const live = useLiveStatus();
  return (
    <div className="space-y-4">
      <h3 className="font-semibold">
        {t('pairing.waiting_title')} <span className="font-mono">{flowbox.serial}</span>
      </h3>
      <ol className="list-decimal space-y-2 pl-5 text-sm">
        <li>{t('pairing.waiting_1')}</li>
        <li>{t('pairing.waiting_2')}</li>
        <li>{t('pairing.waiting_3')}</li>
      </ol>
      <p role="status" className="flex items-center gap-2 text-sm text-sky-800 dark:text-sky-300">
        {live === 'connected' ? (
          <>
            <Spinner size="sm" />
            {t('pairing.waiting_live')}
          </>
        ) : (
          t('pairing.waiting_offline')
        )}
      </p>
    </div>
  );
}
