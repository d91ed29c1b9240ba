import type { Zone } from '@flowbox/shared';
import { Card } from '../../../components/Card.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useBuilding, useBuildingZones, useFloors } from '../../buildings/index.ts';
import { useCreateZone } from '../../zones/index.ts';
import { useAssistantForms } from '../forms.ts';
import { ChoiceList } from './ChoiceList.tsx';

/** Step 4: the zone, where the flowbox will be paired, on one of the floors just added. */
export function ZoneStep({
  customerId,
  siteId,
  buildingId,
  chosenId,
  onDone,
}: {
  customerId: string;
  siteId: string;
  buildingId: string;
  chosenId?: string;
  onDone: (zone: Zone) => void;
}) {
  const { ZoneForm } = useAssistantForms();
  const { t } = useLanguage();
  const toast = useToast();
  const building = useBuilding(customerId, siteId, buildingId);
  const floors = useFloors(customerId, siteId, buildingId);
  const zones = useBuildingZones(customerId, siteId, buildingId);
  const create = useCreateZone(customerId, siteId, buildingId);
  return (
    <QueryBoundary query={building}>
      {(buildingData) => (
        <QueryBoundary query={floors}>
          {(floorData) => (
            <QueryBoundary query={zones}>
              {(zoneData) => (
                <div className="space-y-6">
                  <ChoiceList
                    title={t('assistant.zone.existing')}
                    items={zoneData.items}
                    chosenId={chosenId}
                    detail={(zone) => t(`zones.profile.${zone.profile}`)}
                    continueLabel={(zone) => t('assistant.continue_with', { name: zone.name })}
                    onChoose={onDone}
                  />
                  <Card
                    title={
                      zoneData.items.length > 0 ? t('assistant.zone.new') : t('assistant.zone.new_first')
                    }
                  >
                    <ZoneForm
                      building={buildingData}
                      floors={floorData.items}
                      submitLabel={t('assistant.zone.create')}
                      onSubmit={async (values) => {
                        const zone = await create.mutateAsync(values);
                        toast.success(t('zones.toast_created'));
                        onDone(zone);
                      }}
                    />
                  </Card>
                </div>
              )}
            </QueryBoundary>
          )}
        </QueryBoundary>
      )}
    </QueryBoundary>
  );
}
