import { FloorsSection } from '../../buildings/index.ts';

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
  return <FloorsSection customerId={customerId} siteId={siteId} buildingId={buildingId} manages />;
}
