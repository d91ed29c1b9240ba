import { zodResolver } from '@hookform/resolvers/zod';
import {
  WaterBalanceSettingsSchema,
  type WaterBalanceSettings,
  type WaterBalanceSettingsInput,
} from '@flowbox/shared';
import { useForm } from 'react-hook-form';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { countInput } from '../../../lib/form-values.ts';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import type { BuildingRef } from '../api/get-water-balance.ts';
import { useUpdateWaterBalanceSettings } from '../api/update-water-balance-settings.ts';

const FIELDS = ['main_supply_zone_id', 'alert_liters_per_night', 'alert_share_pct'] as const;

/**
 * The building's main supply zone and the unaccounted-water alert's thresholds (managers with
 * `buildings.manage`; the server checks it again), checked by the shared schema.
 */
export function WaterBalanceSettingsForm({
  building,
  settings,
  zones,
}: {
  building: BuildingRef;
  settings: WaterBalanceSettings;
  zones: readonly { id: string; name: string }[];
}) {
  const { t } = useLanguage();
  const toast = useToast();
  const save = useUpdateWaterBalanceSettings(building);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<WaterBalanceSettingsInput, unknown, WaterBalanceSettings>({
    resolver: zodResolver(WaterBalanceSettingsSchema),
    values: settings,
  });
  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    await save.mutateAsync(values);
    toast.success(t('balance.saved'));
  });

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-6 space-y-4 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h3 className="text-sm font-semibold">{t('balance.settings')}</h3>
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="lg:col-span-3">
          <Select
            label={t('balance.main_supply_zone')}
            placeholder={t('balance.main_supply_none')}
            options={zones.map((zone) => ({ value: zone.id, label: zone.name }))}
            error={errors.main_supply_zone_id}
            {...register('main_supply_zone_id', { setValueAs: (v: string | null) => (v ? v : null) })}
          />
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t('balance.main_supply_hint')}</p>
        </div>
        <TextField
          label={t('balance.alert_liters')}
          error={errors.alert_liters_per_night}
          {...countInput(register, 'alert_liters_per_night')}
        />
        <TextField
          label={t('balance.alert_share')}
          error={errors.alert_share_pct}
          {...countInput(register, 'alert_share_pct')}
        />
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">{t('balance.alert_hint')}</p>
      <div className="flex justify-end">
        <Button type="submit" loading={isSubmitting}>
          {t('balance.save')}
        </Button>
      </div>
    </form>
  );
}
