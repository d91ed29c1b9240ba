import { useState } from 'react';
import { Card } from '../../../components/Card.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useCreateWaterPoint, useWaterPoints, type ZoneRef } from '../../zones/index.ts';
import { useAssistantForms } from '../forms.ts';

/** Step 5: the zone's water points, one after the other; the form starts afresh after each. */
export function WaterPointsStep({ zone }: { zone: ZoneRef }) {
  const { WaterPointForm } = useAssistantForms();
  const { t } = useLanguage();
  const toast = useToast();
  const points = useWaterPoints(zone);
  const create = useCreateWaterPoint(zone);
  const [added, setAdded] = useState(0);
  return (
    <div className="space-y-6">
      <Card title={t('assistant.water_points.recorded')}>
        <QueryBoundary query={points}>
          {(data) => (
            <DataTable
              caption={t('assistant.water_points.recorded')}
              columns={[
                { key: 'label', header: t('water_points.label'), rowHeader: true, cell: (p) => p.label },
                {
                  key: 'type',
                  header: t('water_points.type'),
                  cell: (p) => t(`water_points.type.${p.type}`),
                },
                {
                  key: 'location',
                  header: t('water_points.location'),
                  hideOnMobile: true,
                  cell: (p) => p.location ?? '—',
                },
              ]}
              rows={data.items}
              rowKey={(p) => p.id}
              empty={t('assistant.water_points.none')}
            />
          )}
        </QueryBoundary>
      </Card>
      <Card title={t('assistant.water_points.new')}>
        <WaterPointForm
          key={added}
          submitLabel={t('assistant.water_points.add')}
          onSubmit={async (values) => {
            await create.mutateAsync(values);
            toast.success(t('water_points.toast_created'));
            setAdded((n) => n + 1);
          }}
        />
      </Card>
    </div>
  );
}
