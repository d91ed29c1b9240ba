import { useAssistantForms } from '../forms.ts';

/** Step 3: the building's floors, with the building overview's own floor list (add, modify, delete). */
export function FloorsStep({
  customerId,
  siteId,
  buildingId,
}: {
  customerId: string;
  siteId: string;
  buildingId: string;
}) {
  const { FloorsSection } = useAssistantForms();
  return <FloorsSection customerId={customerId} siteId={siteId} buildingId={buildingId} manages />;
}
