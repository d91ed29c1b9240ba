import type { Building, Site, Zone } from '@flowbox/shared';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';

/** The end: what was set up, and where to go next (pairing is done from the zone). */
export function DoneStep({
  site,
  building,
  zone,
  onAnotherZone,
}: {
  site: Site;
  building: Building;
  zone: Zone;
  onAnotherZone: () => void;
}) {
  const { t } = useLanguage();
  const zoneHref = paths.zone.getHref(zone.customer_id, zone.site_id, zone.building_id, zone.id);
  return (
    <div className="space-y-6">
      <Alert tone="success" title={t('assistant.done.title')}>
        {t('assistant.done.ready', { zone: zone.name })}
      </Alert>
      <Card title={t('assistant.done.summary')}>
        <DescriptionList
          items={[
            { label: t('dashboard.site'), value: site.name },
            { label: t('dashboard.building'), value: building.name },
            { label: t('assistant.done.floors'), value: building.floor_count },
            { label: t('dashboard.zones'), value: zone.name },
            { label: t('dashboard.water_points'), value: zone.water_point_count },
          ]}
        />
      </Card>
      <div className="flex flex-wrap gap-3">
        <ButtonLink to={zoneHref}>{t('assistant.done.open_zone')}</ButtonLink>
        <Button variant="secondary" onClick={onAnotherZone}>
          {t('assistant.done.another_zone')}
        </Button>
        <ButtonLink to={paths.home.getHref()} variant="ghost">
          {t('assistant.done.dashboard')}
        </ButtonLink>
      </div>
    </div>
  );
}
