import type { Flowbox, Zone } from '@flowbox/shared';
import { useState } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage, type TranslationKey } from '../../../lib/i18n/index.ts';
import type { FlowboxRef } from '../api/get-flowbox.ts';
import { useRefusePairing } from '../api/refuse-pairing.ts';
import { useValidatePairing } from '../api/validate-pairing.ts';

type PairingReviewProps = { flowboxRef: FlowboxRef; flowbox: Flowbox; zone: Zone; onDone: () => void };

/**
 * Step 3/3 "finalise pairing": what the device reported beside what the zone expects. A model or
 * water mismatch is the spec §8 error, shown before validating (the server refuses it anyway).
 */
export function PairingReview({ flowboxRef, flowbox, zone, onDone }: PairingReviewProps) {
  const { t } = useLanguage();
  const toast = useToast();
  const validate = useValidatePairing(flowboxRef);
  const refuse = useRefusePairing(flowboxRef);
  const [failure, setFailure] = useState<string | null>(null);
  const mismatches = (
    [
      flowbox.model !== zone.flowbox_model && 'errors.flowbox_model_mismatch',
      flowbox.water_temperature !== zone.water_temperature && 'errors.water_temperature_mismatch',
    ] satisfies (TranslationKey | false)[]
  ).filter((key) => key !== false);
  const reported = (value: string | null) => value ?? t('pairing.unknown');

  async function decide(action: 'validate' | 'refuse') {
    setFailure(null);
    try {
      if (action === 'validate') await validate.mutateAsync();
      else await refuse.mutateAsync();
      toast.success(t(action === 'validate' ? 'pairing.toast_validated' : 'pairing.toast_refused'));
      onDone();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  const rows = [
    {
      label: t('pairing.model'),
      reported: reported(flowbox.model && t(`zones.flowbox_model.${flowbox.model}`)),
      expected: t(`zones.flowbox_model.${zone.flowbox_model}`),
      ok: flowbox.model === zone.flowbox_model,
    },
    {
      label: t('pairing.water_temperature'),
      reported: reported(
        flowbox.water_temperature && t(`zones.water_temperature.${flowbox.water_temperature}`),
      ),
      expected: t(`zones.water_temperature.${zone.water_temperature}`),
      ok: flowbox.water_temperature === zone.water_temperature,
    },
  ];

  return (
    <div className="space-y-4">
      <p className="text-sm">{t('pairing.review_intro')}</p>
      <TableScroll label={t('pairing.review_intro')}>
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-xs text-slate-500 uppercase dark:text-slate-400">
              <td />
              <th scope="col" className="py-1 font-medium">
                {t('pairing.reported')}
              </th>
              <th scope="col" className="py-1 font-medium">
                {t('pairing.expected')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row" className="py-2 pr-2 text-left font-medium">
                  {row.label}
                </th>
                <td className={`py-2 ${row.ok ? '' : 'font-semibold text-red-700 dark:text-red-400'}`}>
                  {row.reported}
                </td>
                <td className="py-2">{row.expected}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="text-sm">
        {t('common.labelled', {
          label: t('pairing.versions'),
          value: t('pairing.versions_value', {
            esp: reported(flowbox.esp_version),
            board: reported(flowbox.board_version),
            firmware: reported(flowbox.firmware_version),
          }),
        })}
      </p>
      {mismatches.length > 0 && (
        <Alert title={t('dialog.error')}>
          {mismatches.map((key) => (
            <span key={key} className="block">
              {t(key)}
            </span>
          ))}
          <span className="mt-1 block">{t('pairing.mismatch_hint')}</span>
        </Alert>
      )}
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="danger" loading={refuse.isPending} onClick={() => void decide('refuse')}>
          {t('pairing.refuse')}
        </Button>
        <Button
          loading={validate.isPending}
          disabled={mismatches.length > 0}
          onClick={() => void decide('validate')}
        >
          {t('pairing.validate')}
        </Button>
      </div>
    </div>
  );
}
