import type { PricingPlanVersion } from '@flowbox/shared';
import { Card } from '../../../components/Card.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { RangesSummary } from './RangesSummary.tsx';

/** Every price the plan has had (spec §3 "new price" keeps the history), newest first. */
export function VersionHistory({ versions }: { versions: PricingPlanVersion[] }) {
  const { t, language } = useLanguage();
  const columns: Column<PricingPlanVersion>[] = [
    { key: 'version', header: t('billing.version'), rowHeader: true, cell: (v) => v.version },
    { key: 'from', header: t('billing.field.from_date'), cell: (v) => formatDate(v.from_date, language) },
    {
      key: 'until',
      header: t('billing.until'),
      cell: (v) => (v.until_date ? formatDate(v.until_date, language) : t('billing.current_price')),
    },
    {
      key: 'billing',
      header: t('billing.field.billing_type'),
      hideOnMobile: true,
      cell: (v) => t(`billing.billing_type.${v.billing_type}`),
    },
    { key: 'ranges', header: t('billing.section_ranges'), cell: (v) => <RangesSummary plan={v} /> },
  ];
  return (
    <Card title={t('billing.versions')}>
      <DataTable
        caption={t('billing.versions')}
        columns={columns}
        rows={versions}
        rowKey={(v) => String(v.version)}
        empty={t('billing.no_plans')}
      />
    </Card>
  );
}
