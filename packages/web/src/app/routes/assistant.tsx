import { AssistantPage } from '../../features/assistant/pages.ts';
import { BuildingForm, FloorsSection } from '../../features/buildings/widgets.ts';
import { SiteForm } from '../../features/sites/widgets.ts';
import { WaterPointForm, ZoneChecklist, ZoneForm } from '../../features/zones/widgets.ts';

const FORMS = { SiteForm, BuildingForm, FloorsSection, ZoneForm, WaterPointForm, ZoneChecklist };

/** The set-up assistant, walking through each feature's own form. */
export function AssistantRoute() {
  return <AssistantPage forms={FORMS} />;
}
