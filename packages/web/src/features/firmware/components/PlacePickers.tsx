import { useFormContext, useWatch } from 'react-hook-form';
import { Select } from '../../../components/Select.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useBuildings, useBuildingZones } from '../../buildings/index.ts';
import { useCustomers } from '../../customers/index.ts';
import { useSites } from '../../sites/index.ts';
import type { RolloutFormValues } from '../rollout-form.ts';

type Level = 'customer_id' | 'site_id' | 'building_id' | 'zone_id';
const BELOW: Record<Level, Level[]> = {
  customer_id: ['site_id', 'building_id', 'zone_id'],
  site_id: ['building_id', 'zone_id'],
  building_id: ['zone_id'],
  zone_id: [],
};

/** One level of the place: choosing it empties the levels below, which depend on it. */
function PlaceSelect({
  level,
  label,
  placeholder,
  options,
  required = false,
}: {
  level: Level;
  label: string;
  placeholder: string;
  options: { value: string; label: string }[] | undefined;
  required?: boolean;
}) {
  const { register, setValue, formState } = useFormContext<RolloutFormValues>();
  const field = register(level);
  return (
    <Select
      label={label}
      placeholder={placeholder}
      options={options ?? []}
      disabled={!options}
      required={required}
      error={formState.errors[level]}
      {...field}
      onChange={async (event) => {
        await field.onChange(event);
        for (const below of BELOW[level]) setValue(below, '');
      }}
    />
  );
}

function CustomerSelect() {
  const { t } = useLanguage();
  const customers = useCustomers({ limit: 500, offset: 0 }).data?.items;
  return (
    <PlaceSelect
      level="customer_id"
      label={t('firmware.place.customer')}
      placeholder={t('firmware.place.whole_fleet')}
      options={customers?.map((c) => ({ value: c.id, label: c.name }))}
    />
  );
}

function SiteSelect({ customerId, required }: { customerId: string; required: boolean }) {
  const { t } = useLanguage();
  const sites = useSites(customerId).data?.items;
  return (
    <PlaceSelect
      level="site_id"
      label={t('firmware.place.site')}
      placeholder={t('firmware.place.every_site')}
      options={sites?.map((s) => ({ value: s.id, label: s.name }))}
      required={required}
    />
  );
}

function BuildingSelect({ customerId, siteId }: { customerId: string; siteId: string }) {
  const { t } = useLanguage();
  const buildings = useBuildings(customerId, siteId).data?.items;
  return (
    <PlaceSelect
      level="building_id"
      label={t('firmware.place.building')}
      placeholder={t('firmware.place.every_building')}
      options={buildings?.map((b) => ({ value: b.id, label: b.name }))}
    />
  );
}

function ZoneSelect({
  customerId,
  siteId,
  buildingId,
}: {
  customerId: string;
  siteId: string;
  buildingId: string;
}) {
  const { t } = useLanguage();
  const zones = useBuildingZones(customerId, siteId, buildingId).data?.items;
  return (
    <PlaceSelect
      level="zone_id"
      label={t('firmware.place.zone')}
      placeholder={t('firmware.place.every_zone')}
      options={zones?.map((z) => ({ value: z.id, label: z.name }))}
    />
  );
}

/**
 * Where a rollout runs (docs/firmware.md "Rollouts"): the whole fleet (provider), a customer, a
 * site, a building or a zone, each level chosen among those of the level above that the user sees.
 */
export function PlacePickers({ provider, siteRequired }: { provider: boolean; siteRequired: boolean }) {
  const { control } = useFormContext<RolloutFormValues>();
  const [customerId, siteId, buildingId] = useWatch({
    control,
    name: ['customer_id', 'site_id', 'building_id'],
  });
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      {provider && <CustomerSelect />}
      {customerId && <SiteSelect customerId={customerId} required={siteRequired} />}
      {customerId && siteId && <BuildingSelect customerId={customerId} siteId={siteId} />}
      {customerId && siteId && buildingId && (
        <ZoneSelect customerId={customerId} siteId={siteId} buildingId={buildingId} />
      )}
    </div>
  );
}
