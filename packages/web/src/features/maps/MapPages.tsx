import type { Plumber, SiteMapItem } from '@flowbox/shared';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ButtonLink } from '../../components/Button.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryBoundary } from '../../components/QueryBoundary.tsx';
import { useLanguage } from '../../lib/i18n/index.ts';
import { paths } from '../../paths.ts';
import { useMapSettings } from '../../lib/map-settings.ts';
import { telHref, usePlumbers } from '../plumbers/index.ts';
import { useSiteMap } from './api/get-site-map.ts';
import { LeafletMap, ToneDot, type MapMarker } from '../../components/maps/LeafletMap.tsx';

const LINK = 'text-sky-700 hover:underline dark:text-sky-400';

export function siteTone(site: SiteMapItem): MapMarker['tone'] {
  if (site.open_alerts > 0) return 'alert';
  if (site.offline_flowboxes > 0 || site.closed_valves > 0) return 'warning';
  return 'ok';
}

function useSiteMarkers(sites: readonly SiteMapItem[] | undefined): MapMarker[] {
  const { t } = useLanguage();
  return useMemo(
    () =>
      (sites ?? []).flatMap((s) =>
        s.latitude === null || s.longitude === null
          ? []
          : [
              {
                id: `site-${s.id}`,
                latitude: s.latitude,
                longitude: s.longitude,
                tone: siteTone(s),
                label: `${s.name} — ${t('map.open_alerts')}: ${s.open_alerts}, ${t('map.offline')}: ${s.offline_flowboxes}, ${t('map.closed_valves')}: ${s.closed_valves}`,
              },
            ],
      ),
    [sites, t],
  );
}

function Legend({ plumbers }: { plumbers?: boolean }) {
  const { t } = useLanguage();
  const tones: [MapMarker['tone'], string][] = [
    ['alert', t('map.legend.alerts')],
    ['warning', t('map.legend.warning')],
    ['ok', t('map.legend.ok')],
    ...(plumbers ? ([['plumber', t('map.legend.plumber')]] as [MapMarker['tone'], string][]) : []),
  ];
  return (
    <div className="mt-3 flex flex-wrap gap-4 text-sm text-slate-700 dark:text-slate-300">
      <span className="font-medium">{t('map.legend')}:</span>
      {tones.map(([tone, label]) => (
        <span key={tone} className="inline-flex items-center gap-1">
          <ToneDot tone={tone} /> {label}
        </span>
      ))}
    </div>
  );
}

function SitesList({ sites }: { sites: readonly SiteMapItem[] }) {
  const { t } = useLanguage();
  const columns: Column<SiteMapItem>[] = [
    {
      key: 'name',
      header: t('map.site'),
      rowHeader: true,
      cell: (s) => (
        <span className="inline-flex items-center gap-2">
          <ToneDot tone={siteTone(s)} />
          <Link to={paths.site.getHref(s.customer_id, s.id)} className={LINK}>
            {s.name}
          </Link>
        </span>
      ),
    },
    { key: 'customer', header: t('map.customer'), hideOnMobile: true, cell: (s) => s.customer_name },
    { key: 'alerts', header: t('map.open_alerts'), cell: (s) => s.open_alerts },
    { key: 'offline', header: t('map.offline'), cell: (s) => s.offline_flowboxes },
    { key: 'closed', header: t('map.closed_valves'), cell: (s) => s.closed_valves },
    {
      key: 'position',
      header: t('map.position'),
      hideOnMobile: true,
      cell: (s) => (s.latitude === null ? t('map.not_placed') : `${s.latitude}, ${s.longitude}`),
    },
  ];
  return (
    <DataTable
      phoneCards
      caption={t('map.sites_list')}
      columns={columns}
      rows={sites}
      rowKey={(s) => s.id}
      empty={t('sites.empty')}
    />
  );
}

function PlumbersList({ plumbers }: { plumbers: readonly Plumber[] }) {
  const { t } = useLanguage();
  const columns: Column<Plumber>[] = [
    { key: 'company', header: t('plumbers.company'), rowHeader: true, cell: (p) => p.company },
    {
      key: 'phone',
      header: t('plumbers.phone'),
      cell: (p) =>
        p.phone ? (
          <a href={telHref(p.phone)} className={`${LINK} whitespace-nowrap`}>
            {p.phone}
          </a>
        ) : null,
    },
    { key: 'address', header: t('plumbers.address'), hideOnMobile: true, cell: (p) => p.address },
    {
      key: 'radius',
      header: t('plumbers.service_radius'),
      hideOnMobile: true,
      cell: (p) =>
        p.service_radius_km === null ? '' : t('plumbers.service_radius_value', { km: p.service_radius_km }),
    },
  ];
  return (
    <DataTable
      phoneCards
      caption={t('map.plumbers_list')}
      columns={columns}
      rows={plumbers}
      rowKey={(p) => p.id}
      empty={t('plumbers.empty')}
    />
  );
}

/** The sites the user sees, coloured by state, and the same as a table (issue 18). */
export function SitesMapPage() {
  const { t } = useLanguage();
  const settings = useMapSettings();
  const sites = useSiteMap();
  const markers = useSiteMarkers(sites.data?.items);
  return (
    <>
      <PageHeader title={t('map.title_sites')} description={t('map.description_sites')} />
      <QueryBoundary query={settings}>
        {(s) => (
          <LeafletMap
            tileUrl={s.tile_url}
            attribution={s.attribution}
            markers={markers}
            label={t('map.title_sites')}
          />
        )}
      </QueryBoundary>
      <Legend />
      <section className="mt-6">
        <h2 className="mb-3 text-lg font-semibold">{t('map.sites_list')}</h2>
        <QueryBoundary query={sites}>
          {(data) => (
            <>
              {data.truncated && (
                <p className="mb-2 text-sm">{t('map.truncated', { count: data.items.length })}</p>
              )}
              <SitesList sites={data.items} />
            </>
          )}
        </QueryBoundary>
      </section>
    </>
  );
}

/** The plumbers with coordinates and the sites on one map, and both as tables. */
export function PlumbersMapPage() {
  const { t } = useLanguage();
  const settings = useMapSettings();
  const sites = useSiteMap();
  const plumbers = usePlumbers({ located: 'true', limit: 500, offset: 0 });
  const siteMarkers = useSiteMarkers(sites.data?.items);
  const markers = useMemo<MapMarker[]>(
    () => [
      ...siteMarkers,
      ...(plumbers.data?.items ?? []).flatMap((p) =>
        p.latitude === null || p.longitude === null
          ? []
          : [
              {
                id: `plumber-${p.id}`,
                latitude: p.latitude,
                longitude: p.longitude,
                tone: 'plumber' as const,
                label: [p.company, p.phone].filter(Boolean).join(' — '),
              },
            ],
      ),
    ],
    [siteMarkers, plumbers.data],
  );
  return (
    <>
      <PageHeader
        title={t('plumbers.map')}
        description={t('map.description_plumbers')}
        breadcrumbs={[{ label: t('plumbers.title'), to: paths.plumbers.getHref() }]}
        actions={
          <ButtonLink to={paths.plumbers.getHref()} variant="secondary">
            {t('plumbers.title')}
          </ButtonLink>
        }
      />
      <QueryBoundary query={settings}>
        {(s) => (
          <LeafletMap
            tileUrl={s.tile_url}
            attribution={s.attribution}
            markers={markers}
            label={t('plumbers.map')}
          />
        )}
      </QueryBoundary>
      <Legend plumbers />
      <section className="mt-6">
        <h2 className="mb-3 text-lg font-semibold">{t('map.plumbers_list')}</h2>
        <QueryBoundary query={plumbers}>{(data) => <PlumbersList plumbers={data.items} />}</QueryBoundary>
      </section>
      <section className="mt-6">
        <h2 className="mb-3 text-lg font-semibold">{t('map.sites_list')}</h2>
        <QueryBoundary query={sites}>{(data) => <SitesList sites={data.items} />}</QueryBoundary>
      </section>
    </>
  );
}
