import type { ConsumptionDetails } from '@flowbox/shared';
import { Link } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { Card } from '../../../components/Card.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useConsumptionDetails } from '../api/get-consumption-details.ts';
import type { ConsumptionTarget } from '../api/target.ts';
import { bucketAxisLabel, bucketTitle, formatVolume, formatVolumeNumber, unitKey } from '../format.ts';
import { useConsumptionLive } from '../live/useConsumptionLive.ts';
import { ChartSkeleton } from '../../../components/charts/ChartSkeleton.tsx';
import { ConsumptionTable } from './ConsumptionTable.tsx';
import { LazyBars } from './LazyBars.tsx';
import { useWindowParam, WindowSwitch } from './WindowSwitch.tsx';
import { numberFormat } from '../../../lib/intl.ts';

type ZoneTarget = Required<ConsumptionTarget>;
const HEIGHT = 220;

function DeviceDetails({ details, flowboxId }: { details: ConsumptionDetails; flowboxId: string }) {
  const { t, language } = useLanguage();
  const device = details.flowboxes.find((flowbox) => flowbox.flowbox_id === flowboxId);
  const silent =
    device?.buckets.every((bucket) => Number(bucket.volume) === 0) &&
    details.climate.every((entry) => entry.temperature === null && entry.humidity === null);
  if (!device || silent) {
    return <EmptyState title={t('consumption.empty')}>{t('consumption.empty_device')}</EmptyState>;
  }
  const { window, timezone } = details;
  const unit = t(unitKey(details.volume_unit));
  const number = (value: number, digits = 1) =>
    numberFormat(language, { maximumFractionDigits: digits }).format(value);
  const minutes = (seconds: number) => number(seconds / 60);
  const climate = (start: string) => details.climate.find((entry) => entry.start === start);
  const titles = device.buckets.map((bucket) => bucketTitle(bucket, window, timezone, language));
  return (
    <>
      <LazyBars
        height={HEIGHT}
        categories={device.buckets.map((bucket) => bucketAxisLabel(bucket, window, timezone, language))}
        series={[
          {
            name: t('consumption.volume'),
            values: device.buckets.map((b) => Number(b.volume)),
            tone: 'current',
          },
        ]}
        formatValue={(value) => formatVolumeNumber(value, language)}
        valueName={unit}
        tooltips={device.buckets.map((bucket, index) => [
          titles[index]!,
          t('consumption.tooltip_line', {
            label: t('consumption.volume'),
            value: formatVolume(bucket.volume, unit, language),
          }),
          t('consumption.tooltip_line', {
            label: t('consumption.flow_minutes'),
            value: minutes(bucket.flow_s),
          }),
        ])}
      />
      <ConsumptionTable
        caption={t('consumption.device_caption', { timezone })}
        headers={[
          t('consumption.period'),
          `${t('consumption.volume')} (${unit})`,
          t('consumption.flow_minutes'),
          t('consumption.temperature'),
          t('consumption.humidity'),
        ]}
        rows={device.buckets.map((bucket, index) => {
          const stats = climate(bucket.start);
          return {
            key: bucket.start,
            cells: [
              titles[index],
              formatVolumeNumber(bucket.volume, language),
              minutes(bucket.flow_s),
              stats?.temperature ? `${number(stats.temperature.avg)} °C` : '—',
              stats?.humidity ? `${number(stats.humidity.avg, 0)} %` : '—',
            ],
          };
        })}
      />
    </>
  );
}

/**
 * Device-level consumption on the flowbox detail page: premium zones only (the server refuses
 * basic ones; its message is shown with a way to upgrade the zone).
 */
export function FlowboxConsumptionCard({ target, flowboxId }: { target: ZoneTarget; flowboxId: string }) {
  const { t } = useLanguage();
  const [window, setWindow] = useWindowParam();
  const details = useConsumptionDetails(target, window);
  useConsumptionLive(target);
  const premiumOnly =
    details.error instanceof ApiRequestError && details.error.code === 'errors.premium_required';
  return (
    <div data-testid="flowbox-consumption">
      <Card
        title={t('consumption.flowbox_title')}
        actions={!premiumOnly && <WindowSwitch value={window} onChange={setWindow} />}
      >
        {details.isPending ? (
          <ChartSkeleton height={HEIGHT} label={t('consumption.loading')} />
        ) : premiumOnly ? (
          <Alert tone="info">
            {details.error?.message}{' '}
            <Link
              to={paths.zoneSubscription.getHref(
                target.customerId,
                target.siteId,
                target.buildingId,
                target.zoneId,
              )}
              className="font-semibold underline"
            >
              {t('consumption.premium_upgrade')}
            </Link>
          </Alert>
        ) : details.isError ? (
          <Alert title={t('dialog.error')}>{details.error.message}</Alert>
        ) : (
          <DeviceDetails details={details.data} flowboxId={flowboxId} />
        )}
      </Card>
    </div>
  );
}
