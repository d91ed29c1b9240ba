import type { Flowbox } from '@flowbox/shared';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { Badge } from '../../../components/Badge.tsx';
import { formatReading } from '../format.ts';
import { DeviceClock } from './DeviceClock.tsx';
import { ConnectionBadge } from './FlowboxBadges.tsx';

/** spec §3 flowbox readings and §4 states, as last reported; the live channel keeps them current. */
export function FlowboxStateCard({ flowbox }: { flowbox: Flowbox }) {
  const { t, language } = useLanguage();
  const unknown = <span className="text-slate-500 dark:text-slate-400">{t('flowbox.unknown')}</span>;
  const reading = (value: number | null, key: 'flowbox.celsius' | 'flowbox.percent') => {
    const text = formatReading(value, language);
    return text === null ? unknown : t(key, { value: text });
  };
  const mode = (on: boolean | null) =>
    on === null ? unknown : on ? <Badge tone="warn">{t('flowbox.on')}</Badge> : t('flowbox.off');
  const flow = formatReading(flowbox.flow_lpm, language, 2);
  const index = formatReading(flowbox.flowmeter_index_l, language, 3);

  return (
    <Card title={t('flowbox.section_state')}>
      <DescriptionList
        items={[
          {
            label: t('flowboxes.connection'),
            value: (
              <>
                <ConnectionBadge flowbox={flowbox} />
                {flowbox.connection === 'connected' && flowbox.connection_since && (
                  <span className="mt-1 block text-xs text-slate-500 dark:text-slate-400">
                    {t('flowboxes.connected_since', {
                      date: formatDateTime(flowbox.connection_since, language),
                    })}
                  </span>
                )}
              </>
            ),
          },
          {
            label: t('flowbox.valve'),
            value: flowbox.valve ? (
              <span data-testid="flowbox-valve" data-valve={flowbox.valve}>
                <Badge tone={flowbox.valve === 'opened' ? 'good' : 'warn'}>
                  {t(`zones.valve_state.${flowbox.valve}`)}
                </Badge>
              </span>
            ) : (
              unknown
            ),
          },
          {
            label: t('flowbox.flowmeter'),
            value: flow === null ? unknown : t('flowbox.flowmeter_value', { flow }),
          },
          {
            label: t('flowbox.meter_index'),
            value:
              index === null ? (
                <span className="text-slate-500 dark:text-slate-400">{t('flowbox.meter_index_none')}</span>
              ) : (
                <span data-testid="flowbox-meter-index">{t('flowbox.meter_index_value', { index })}</span>
              ),
          },
          { label: t('flowbox.temperature'), value: reading(flowbox.temperature, 'flowbox.celsius') },
          { label: t('flowbox.humidity'), value: reading(flowbox.humidity, 'flowbox.percent') },
          { label: t('flowbox.maintenance_mode'), value: mode(flowbox.maintenance_mode) },
          { label: t('flowbox.leak_detection_mode'), value: mode(flowbox.leak_detection_mode) },
          {
            label: t('flowbox.last_seen'),
            value: flowbox.last_seen_at ? formatDateTime(flowbox.last_seen_at, language) : unknown,
          },
          { label: t('flowbox.device_clock'), value: <DeviceClock flowbox={flowbox} /> },
        ]}
      />
    </Card>
  );
}
