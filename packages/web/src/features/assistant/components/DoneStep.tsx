import type { Building, Site, Zone } from '@flowbox/shared';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { ZONE_SECTION, useZoneReadiness } from '../../zones/index.ts';
import { useAssistantForms } from '../forms.ts';

/**
 * The end: what was set up, the zone's checklist (subscription, flowbox, automatic closing), and
 * a way on into the first thing it still needs, not a sentence saying what to do.
 */
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
  const { ZoneChecklist } = useAssistantForms();
  const { t } = useLanguage();
  const zoneHref = paths.zone.getHref(zone.customer_id, zone.site_id, zone.building_id, zone.id);
  const zoneRef = {
    customerId: zone.customer_id,
    siteId: zone.site_id,
    buildingId: zone.building_id,
    zoneId: zone.id,
  };
  const { subscribed, pairedFlowboxes, automaticClosing } = useZoneReadiness(zoneRef);
  const next =
    subscribed === false
      ? {
          label: t('assistant.done.continue_subscription'),
          to: paths.zoneSubscription.getHref(zone.customer_id, zone.site_id, zone.building_id, zone.id),
        }
      : pairedFlowboxes?.length === 0
        ? { label: t('assistant.done.continue_pairing'), to: `${zoneHref}#${ZONE_SECTION.flowboxes}` }
        : automaticClosing === false
          ? { label: t('assistant.done.continue_automation'), to: `${zoneHref}#${ZONE_SECTION.automation}` }
          : undefined;
  return (
    <div className="space-y-6">
      <Alert tone="success" title={t('assistant.done.title')}>
        {t('assistant.done.created', { zone: zone.name })}
      </Alert>
      <ZoneChecklist zoneRef={zoneRef} always />
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
        {next && <ButtonLink to={next.to}>{next.label}</ButtonLink>}
        <ButtonLink to={zoneHref} variant={next ? 'secondary' : 'primary'}>
          {t('assistant.done.open_zone')}
        </ButtonLink>
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
