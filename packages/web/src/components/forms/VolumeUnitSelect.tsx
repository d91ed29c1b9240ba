import { VOLUME_UNITS } from '@flowbox/shared';
import { useTranslation } from 'react-i18next';
import { Select, type SelectProps } from '../Select.tsx';

/** The volume unit of a building or a pricing plan (spec §3: gallon, imperial gallon, litre, m³). */
export function VolumeUnitSelect(props: Omit<SelectProps, 'options'>) {
  const { t } = useTranslation();
  const options = VOLUME_UNITS.map((unit) => ({ value: unit, label: t(`volume_unit.${unit}`) }));
  return <Select required options={options} {...props} />;
}
