import type { ConsumptionWindow } from '@flowbox/shared';
import { Button } from '../../../components/Button.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useDownloadConsumptionCsv } from '../api/download-consumption-csv.ts';
import type { ConsumptionTarget } from '../api/target.ts';

/** "Download CSV" of the scope over the window shown. */
export function CsvButton({
  target,
  window,
  fileStem,
}: {
  target: ConsumptionTarget;
  window: ConsumptionWindow;
  fileStem: string;
}) {
  const { t } = useLanguage();
  const toast = useToast();
  const download = useDownloadConsumptionCsv(target, fileStem);
  return (
    <Button
      variant="secondary"
      loading={download.isPending}
      onClick={() =>
        download.mutate(window, {
          onError: (error) => toast.error(t('consumption.download_failed', { message: error.message })),
        })
      }
    >
      {t('consumption.download_csv')}
    </Button>
  );
}
