import type { Flowbox } from '@flowbox/shared';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';

/** spec §2 "flowbox information": what the device is, which software it runs, how it is connected. */
export function FlowboxInformationCard({ flowbox, floor }: { flowbox: Flowbox; floor: string | undefined }) {
  const { t, language } = useLanguage();
  const text = (value: string | null) =>
    value ?? <span className="text-slate-500 dark:text-slate-400">{t('flowbox.unknown')}</span>;
  return (
    <Card title={t('flowbox.section_information')}>
      <DescriptionList
        items={[
          { label: t('flowboxes.serial'), value: <span className="font-mono">{flowbox.serial}</span> },
          {
            label: t('flowbox.model'),
            value: text(flowbox.model && t(`zones.flowbox_model.${flowbox.model}`)),
          },
          {
            label: t('flowbox.water_temperature'),
            value: text(
              flowbox.water_temperature && t(`zones.water_temperature.${flowbox.water_temperature}`),
            ),
          },
          { label: t('flowbox.floor'), value: floor ?? t('pairing.no_floor') },
          { label: t('flowbox.esp_version'), value: text(flowbox.esp_version) },
          { label: t('flowbox.board_version'), value: text(flowbox.board_version) },
          { label: t('flowbox.firmware_version'), value: text(flowbox.firmware_version) },
          { label: t('flowbox.network_interface'), value: text(flowbox.network_interface) },
          { label: t('flowbox.network_address'), value: text(flowbox.network_address) },
          { label: t('flowbox.network_gateway'), value: text(flowbox.network_gateway) },
          { label: t('flowbox.wifi_ssid'), value: text(flowbox.wifi_ssid) },
          {
            label: t('flowbox.paired_at'),
            value: text(flowbox.paired_at && formatDateTime(flowbox.paired_at, language)),
          },
        ]}
      />
    </Card>
  );
}
