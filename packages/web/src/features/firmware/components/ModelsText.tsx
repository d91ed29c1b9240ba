import type { FlowboxModel } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';

/** The flowbox models an image fits, as the zone screens name them (1/2", 1", 2"). */
export function ModelsText({ models }: { models: readonly FlowboxModel[] }) {
  const { t } = useLanguage();
  return <>{models.map((model) => t(`zones.flowbox_model.${model}`)).join(', ')}</>;
}
