import {
  AutomaticClosingSettingsSchema,
  translate,
  volumeMarginOutOfBounds,
  type AutomaticClosingSettings,
  type Automation,
  type MessageKey,
} from '@flowbox/shared';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { errorMessage } from '../../../lib/forms.ts';
import { currentLanguage, useLanguage } from '../../../lib/i18n/index.ts';
import { BacktestPanel } from './BacktestPanel.tsx';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

type Props = {
  open: boolean;
  onClose: () => void;
  automation: Automation;
  /** The zone: the settings are tried on its last 30 days before they are saved. */
  zoneRef: ZoneRef;
  onSave: (input: {
    automatic_closing_enabled: boolean;
    volume_margin_enabled: boolean;
    volume_margin: number | null;
    duration_margin_enabled: boolean;
    duration_margin_minutes: number | null;
  }) => Promise<unknown>;
};

type Errors = Partial<
  Record<'automatic_closing_enabled' | 'volume_margin' | 'duration_margin_minutes', string>
>;

const asNumber = (text: string): number | null =>
  text.trim() === '' ? null : Number(text.replace(',', '.'));

/**
 * The zone's margins (spec §3, §5): checked here with the same schema and bounds as the server, so
 * the user sees the catalogue message before sending; the server checks again.
 */
export function AutomationSettingsDialog({ open, onClose, automation, zoneRef, onSave }: Props) {
  const { t } = useLanguage();
  const [enabled, setEnabled] = useState(automation.automatic_closing_enabled);
  const [volumeOn, setVolumeOn] = useState(automation.volume_margin_enabled);
  const [volume, setVolume] = useState(automation.volume_margin?.toString() ?? '');
  const [durationOn, setDurationOn] = useState(automation.duration_margin_enabled);
  const [duration, setDuration] = useState(automation.duration_margin_minutes?.toString() ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The checked settings being tried on the zone's past (issue 29): saved from that step only. */
  const [trying, setTrying] = useState<AutomaticClosingSettings | null>(null);
  const unit = t(`consumption.unit.${automation.volume_unit}`);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const input = {
      automatic_closing_enabled: enabled,
      volume_margin_enabled: volumeOn,
      volume_margin: asNumber(volume),
      duration_margin_enabled: durationOn,
      duration_margin_minutes: asNumber(duration),
    };
    const found: Errors = {};
    const parsed = AutomaticClosingSettingsSchema.safeParse(input);
    for (const issue of parsed.error?.issues ?? []) {
      const field = String(issue.path[0]) as keyof Errors;
      const params: Record<string, number> =
        issue.code === 'too_small'
          ? { min: Number(issue.minimum) }
          : issue.code === 'too_big'
            ? { max: Number(issue.maximum) }
            : {};
      found[field] ??= translate(issue.message as MessageKey, currentLanguage(), params);
    }
    const bounds =
      input.volume_margin !== null && !Number.isNaN(input.volume_margin)
        ? volumeMarginOutOfBounds(input.volume_margin, automation.volume_unit)
        : null;
    if (bounds) found.volume_margin ??= translate('validation.between', currentLanguage(), bounds);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setTrying(input);
  }

  async function save() {
    if (!trying) return;
    setBusy(true);
    try {
      await onSave(trying);
    } catch (error) {
      if (error instanceof ApiRequestError)
        setErrors(Object.fromEntries((error.details ?? []).map((d) => [d.path, d.message])));
      setFailure(errorMessage(error));
      setTrying(null);
    } finally {
      setBusy(false);
    }
  }

  const fieldError = (message?: string) => (message ? { type: 'invalid', message } : undefined);

  if (trying)
    return (
      <Dialog open={open} onClose={onClose} title={t('automation.backtest_title')} wide>
        <div className="space-y-4">
          <BacktestPanel zoneRef={zoneRef} request={{ days: 30, automatic_closing: trying }} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setTrying(null)}>
              {t('automation.backtest_back')}
            </Button>
            <Button onClick={() => void save()} loading={busy}>
              {t('automation.save')}
            </Button>
          </div>
        </div>
      </Dialog>
    );

  return (
    <Dialog open={open} onClose={onClose} title={t('automation.form_title')}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <div>
          <Checkbox
            name="automatic_closing_enabled"
            label={t('automation.enable')}
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
            error={fieldError(errors.automatic_closing_enabled)}
          />
          <p className="mt-1 ml-6 text-xs text-slate-600 dark:text-slate-400">
            {t('automation.enable_hint')}
          </p>
        </div>
        <fieldset className="space-y-2">
          <Checkbox
            name="volume_margin_enabled"
            label={t('automation.volume_enable')}
            checked={volumeOn}
            onChange={(e) => setVolumeOn(e.target.checked)}
          />
          <TextField
            name="volume_margin"
            inputMode="decimal"
            label={t('automation.volume_label', { unit })}
            hint={t('automation.volume_hint', { ...automation.volume_margin_bounds, unit })}
            value={volume}
            disabled={!volumeOn}
            onChange={(e) => setVolume(e.target.value)}
            error={fieldError(errors.volume_margin)}
          />
        </fieldset>
        <fieldset className="space-y-2">
          <Checkbox
            name="duration_margin_enabled"
            label={t('automation.duration_enable')}
            checked={durationOn}
            onChange={(e) => setDurationOn(e.target.checked)}
          />
          <TextField
            name="duration_margin_minutes"
            inputMode="numeric"
            label={t('automation.duration_label')}
            hint={t('automation.duration_hint', automation.duration_margin_bounds)}
            value={duration}
            disabled={!durationOn}
            onChange={(e) => setDuration(e.target.value)}
            error={fieldError(errors.duration_margin_minutes)}
          />
        </fieldset>
        <p className="text-xs text-slate-600 dark:text-slate-400">{t('automation.off_hours_hint')}</p>
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit">{t('automation.test')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
