import type { Building } from '@flowbox/shared';
import { Card } from '../../../components/Card.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useBuildings, useCreateBuilding } from '../../buildings/index.ts';
import { useAssistantForms } from '../forms.ts';
import { ChoiceList } from './ChoiceList.tsx';

/** Step 2: the building, with every mandatory field of the normal building form (spec §5). */
export function BuildingStep({
  customerId,
  siteId,
  chosenId,
  onDone,
}: {
  customerId: string;
  siteId: string;
  chosenId?: string;
  onDone: (building: Building) => void;
}) {
  const { BuildingForm } = useAssistantForms();
  const { t } = useLanguage();
  const toast = useToast();
  const buildings = useBuildings(customerId, siteId);
  const create = useCreateBuilding(customerId, siteId);
  return (
    <QueryBoundary query={buildings}>
      {(data) => (
        <div className="space-y-6">
          <ChoiceList
            title={t('assistant.building.existing')}
            items={data.items}
            chosenId={chosenId}
            detail={(building) => `${building.address}, ${building.city}`}
            continueLabel={(building) => t('assistant.continue_with', { name: building.name })}
            onChoose={onDone}
          />
          <Card
            title={data.items.length > 0 ? t('assistant.building.new') : t('assistant.building.new_first')}
          >
            <BuildingForm
              submitLabel={t('assistant.building.create')}
              onSubmit={async (values) => {
                const building = await create.mutateAsync(values);
                toast.success(t('buildings.added'));
                onDone(building);
              }}
            />
          </Card>
        </div>
      )}
    </QueryBoundary>
  );
}
