import type { FirmwareImage, FirmwareUpdate, FlowboxFirmware, LiveMessage } from '@flowbox/shared';
import { useCallback, useId, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useLiveStatus } from '../../../lib/live.ts';
import { paths } from '../../../paths.ts';
import {
  flowboxFirmwareKey,
  useFlowboxFirmware,
  type FirmwareFlowboxRef,
} from '../api/get-flowbox-firmware.ts';
import { useUpdateFlowboxFirmware } from '../api/update-flowbox-firmware.ts';
import { formatPercent } from '../format.ts';
import { concernsFlowboxFirmware } from '../rollout-live.ts';
import { ProgressBar } from './ProgressBar.tsx';
import { ReasonText } from './ReasonText.tsx';
import { UpdateStateBadge } from './UpdateStateBadge.tsx';
import { useLiveRefresh } from './useLiveRefresh.ts';

/** A new version reported by the device, or a step of one of its updates. */
const CARD_MESSAGES = ['flowbox', 'firmware_update'] as const;

/** Who started an update: a user, or a rollout (linked). */
function Origin({ update }: { update: FirmwareUpdate }) {
  const { t } = useLanguage();
  if (update.rollout_id)
    return (
      <Link
        to={paths.firmwareRollout.getHref(update.rollout_id)}
        className="text-sky-700 hover:underline dark:text-sky-400"
      >
        {t('firmware.origin_rollout', { wave: update.wave ?? 1 })}
      </Link>
    );
  return <>{t('firmware.origin_user', { name: update.requested_by_name ?? t('firmware.someone') })}</>;
}

/** The running update: its state and progress, announced politely as they change. */
function CurrentUpdate({ update }: { update: FirmwareUpdate }) {
  const { t, language } = useLanguage();
  const pct = update.progress_pct;
  return (
    <div className="space-y-2 rounded-lg border border-sky-200 bg-sky-50 p-3 dark:border-sky-900 dark:bg-sky-950/40">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{t('firmware.updating_to', { version: update.target_version })}</span>
        <UpdateStateBadge state={update.state} />
        {pct !== null && (
          <span aria-hidden="true" className="ml-auto tabular-nums" data-testid="firmware-current-pct">
            {formatPercent(pct, language)}
          </span>
        )}
      </div>
      {pct !== null && (
        <ProgressBar pct={pct} label={t('firmware.update_progress', { version: update.target_version })} />
      )}
      {/* The badge and the bar show it; screen readers hear each change. */}
      <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="firmware-current">
        {t('firmware.current_line', {
          state: t(`firmware.state.${update.state}`),
          pct: pct === null ? '' : formatPercent(pct, language),
        })}
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        <Origin update={update} />
      </p>
    </div>
  );
}

/** One past or running update with every state it went through and when. */
function HistoryItem({ update }: { update: FirmwareUpdate }) {
  const { t, language } = useLanguage();
  return (
    <li className="py-3">
      <details>
        <summary className="flex cursor-pointer flex-wrap items-center gap-2 rounded text-sm focus-visible:outline-2 focus-visible:outline-sky-600">
          <span className="font-medium">
            {t('firmware.history_versions', { from: update.from_version ?? '?', to: update.target_version })}
          </span>
          <UpdateStateBadge state={update.state} />
          <time dateTime={update.state_changed_at} className="text-xs text-slate-600 dark:text-slate-400">
            {formatDateTime(update.state_changed_at, language)}
          </time>
        </summary>
        <div className="mt-2 space-y-2 pl-4 text-xs">
          <p className="text-slate-600 dark:text-slate-400">
            <Origin update={update} />
            {update.reason && (
              <>
                {' · '}
                <ReasonText reason={update.reason} />
              </>
            )}
          </p>
          <ol className="space-y-1 border-l border-slate-200 pl-3 dark:border-slate-700">
            {update.steps.map((step, index) => (
              <li key={`${step.state}-${step.at}-${index}`} className="flex flex-wrap items-center gap-2">
                <time dateTime={step.at} className="tabular-nums text-slate-600 dark:text-slate-400">
                  {formatDateTime(step.at, language)}
                </time>
                <span>{t(`firmware.state.${step.state}`)}</span>
                {step.progress_pct !== null && <span>{formatPercent(step.progress_pct, language)}</span>}
                {step.reason && (
                  <span className="text-slate-600 dark:text-slate-400">
                    (<ReasonText reason={step.reason} />)
                  </span>
                )}
              </li>
            ))}
          </ol>
        </div>
      </details>
    </li>
  );
}

/** The compatible versions to choose from, then a confirmation of the one chosen. */
function UpdateDialog({
  open,
  firmware,
  onClose,
  onInstall,
}: {
  open: boolean;
  firmware: FlowboxFirmware;
  onClose: () => void;
  onInstall: (image: FirmwareImage, duringOpeningHours: boolean) => Promise<void>;
}) {
  const { t, language } = useLanguage();
  const [chosen, setChosen] = useState<string>('');
  const [failure, setFailure] = useState<string | null>(null);
  // The server refused because the building is open: the user may then ask for it even so.
  const [buildingOpen, setBuildingOpen] = useState(false);
  const [evenOpen, setEvenOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const image = firmware.compatible.find((i) => i.id === chosen);
  const close = () => {
    setChosen('');
    setFailure(null);
    setBuildingOpen(false);
    setEvenOpen(false);
    onClose();
  };
  async function install() {
    if (!image) return;
    setBusy(true);
    setFailure(null);
    try {
      await onInstall(image, evenOpen);
      close();
    } catch (error) {
      const open = error instanceof ApiRequestError && error.code === 'errors.firmware_opening_hours';
      // Asked again (the box ticked) and refused for another cause: that cause alone is shown.
      setBuildingOpen(open);
      if (!open) setEvenOpen(false);
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open={open} onClose={close} title={t('firmware.update_title')}>
      <div className="space-y-4">
        <fieldset>
          <legend className="mb-2 text-sm">
            {t('firmware.update_current', { version: firmware.versions.firmware ?? t('flowbox.unknown') })}
          </legend>
          <ul className="space-y-2">
            {firmware.compatible.map((i) => (
              <li key={i.id}>
                <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-[:checked]:border-sky-600 dark:border-slate-700">
                  <input
                    type="radio"
                    name="image_id"
                    value={i.id}
                    checked={chosen === i.id}
                    onChange={() => setChosen(i.id)}
                    className="mt-1 h-4 w-4 accent-sky-700"
                  />
                  <span className="min-w-0 text-sm">
                    <span className="font-medium">{i.version}</span>
                    {i.status === 'deprecated' && (
                      <span className="ml-2 text-xs text-amber-800 dark:text-amber-300">
                        {t('firmware.image_status.deprecated')}
                      </span>
                    )}
                    <span className="block text-xs break-words whitespace-pre-wrap text-slate-600 dark:text-slate-400">
                      {(language === 'fr' ? (i.notes_fr ?? i.notes_en) : (i.notes_en ?? i.notes_fr)) ??
                        t('firmware.no_notes')}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {image && (
          <p className="text-sm font-medium">{t('firmware.update_confirm', { version: image.version })}</p>
        )}
        {/* The opening hours are a question to the user, asked with the box that answers it. */}
        {buildingOpen ? (
          <Alert tone="warning" title={t('firmware.opening_hours_title')}>
            <p>{failure}</p>
            <Checkbox
              name="during_opening_hours"
              className="mt-3"
              label={t('firmware.update_even_open')}
              checked={evenOpen}
              onChange={(event) => setEvenOpen(event.target.checked)}
            />
          </Alert>
        ) : (
          failure && <Alert title={t('dialog.error')}>{failure}</Alert>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button disabled={!image} loading={busy} onClick={() => void install()}>
            {image ? t('firmware.install_version', { version: image.version }) : t('firmware.install')}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

function FirmwareDetails({
  flowboxRef,
  firmware,
}: {
  flowboxRef: FirmwareFlowboxRef;
  firmware: FlowboxFirmware;
}) {
  const { t } = useLanguage();
  const toast = useToast();
  const update = useUpdateFlowboxFirmware(flowboxRef);
  const [choosing, setChoosing] = useState(false);
  const reasonId = useId();
  const text = (value: string | null) => value ?? t('flowbox.unknown');
  const blocked = firmware.current
    ? t('firmware.update_blocked_running')
    : firmware.compatible.length === 0
      ? t('firmware.update_blocked_none')
      : null;
  return (
    <div className="space-y-4">
      <DescriptionList
        items={[
          { label: t('flowbox.firmware_version'), value: text(firmware.versions.firmware) },
          { label: t('flowbox.esp_version'), value: text(firmware.versions.esp) },
          { label: t('flowbox.board_version'), value: text(firmware.versions.board) },
          {
            label: t('flowbox.model'),
            value: firmware.model ? t(`zones.flowbox_model.${firmware.model}`) : t('flowbox.unknown'),
          },
        ]}
      />
      {firmware.current && <CurrentUpdate update={firmware.current} />}
      <div>
        <Button
          onClick={() => setChoosing(true)}
          disabled={blocked !== null}
          aria-describedby={blocked ? reasonId : undefined}
        >
          {t('firmware.update_button')}
        </Button>
        {blocked && (
          <p id={reasonId} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {blocked}
          </p>
        )}
      </div>
      <section>
        <h3 className="text-sm font-semibold">{t('firmware.history')}</h3>
        {firmware.history.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('firmware.history_empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {firmware.history.map((u) => (
              <HistoryItem key={u.id} update={u} />
            ))}
          </ul>
        )}
      </section>
      <UpdateDialog
        open={choosing}
        firmware={firmware}
        onClose={() => setChoosing(false)}
        onInstall={async (image, duringOpeningHours) => {
          await update.mutateAsync({ imageId: image.id, duringOpeningHours });
          toast.success(t('firmware.update_sent', { version: image.version }));
        }}
      />
    </div>
  );
}

/**
 * A flowbox's firmware (docs/firmware.md): its versions, the update running now with its
 * progress, an update to a compatible version, and the history with every state and time. Read
 * again on each pushed step of its update (a burst at most twice a second), on a new version
 * reported by the device, and when the live stream reopens; polled slowly only while the stream is
 * down (issue 17: it was polled every two seconds).
 */
export function FlowboxFirmwareCard({ flowboxRef }: { flowboxRef: FirmwareFlowboxRef }) {
  const { t } = useLanguage();
  const live = useLiveStatus();
  const firmware = useFlowboxFirmware(flowboxRef, live);
  const firmwareVersion = firmware.data?.versions.firmware;
  const headingId = useId();
  const { flowboxId } = flowboxRef;
  useLiveRefresh(
    flowboxFirmwareKey({ flowboxId }),
    CARD_MESSAGES,
    useCallback(
      (message: Extract<LiveMessage, { type: (typeof CARD_MESSAGES)[number] }>) =>
        message.type === 'flowbox'
          ? message.flowbox.id === flowboxId && message.flowbox.firmware_version !== firmwareVersion
          : concernsFlowboxFirmware(message, flowboxId),
      [flowboxId, firmwareVersion],
    ),
  );
  return (
    <Card title={t('firmware.card_title')} headingId={headingId}>
      {/* Not a QueryBoundary: a refusal here must not take the whole flowbox page with it. */}
      {firmware.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : firmware.isError ? (
        <Alert title={t('dialog.error')}>{firmware.error.message}</Alert>
      ) : (
        <FirmwareDetails flowboxRef={flowboxRef} firmware={firmware.data} />
      )}
    </Card>
  );
}
