import { createContext, useContext, type ComponentType } from 'react';
import type { BuildingFormProps, FloorsSectionProps } from '../buildings/index.ts';
import type { SiteFormProps } from '../sites/index.ts';
import type { WaterPointFormProps, ZoneChecklistProps, ZoneFormProps } from '../zones/index.ts';

/**
 * The forms the assistant walks through, each its feature's own (the site's, the building's, …),
 * composed by the app (app/routes/assistant.tsx): the assistant orders the steps and keeps the
 * progress, the features keep their forms.
 */
export type AssistantForms = {
  SiteForm: ComponentType<SiteFormProps>;
  BuildingForm: ComponentType<BuildingFormProps>;
  FloorsSection: ComponentType<FloorsSectionProps>;
  ZoneForm: ComponentType<ZoneFormProps>;
  WaterPointForm: ComponentType<WaterPointFormProps>;
  ZoneChecklist: ComponentType<ZoneChecklistProps>;
};

export const AssistantFormsContext = createContext<AssistantForms | null>(null);

/** The forms the assistant page was given, for its steps. */
export function useAssistantForms(): AssistantForms {
  const forms = useContext(AssistantFormsContext);
  if (!forms) throw new Error('An assistant step renders inside AssistantPage, which is given the forms');
  return forms;
}
