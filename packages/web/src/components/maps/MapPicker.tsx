import { useMemo } from 'react';
import { useLanguage } from '../../lib/i18n/index.ts';
import { useMapSettings } from '../../lib/map-settings.ts';
import { LeafletMap, type MapMarker } from './LeafletMap.tsx';

/** A map to click on to place something; the fields beside it take typed coordinates too. */
export default function MapPicker({
  latitude,
  longitude,
  onPick,
}: {
  latitude: number | null;
  longitude: number | null;
  onPick: (latitude: number, longitude: number) => void;
}) {
  const { t } = useLanguage();
  const settings = useMapSettings();
  const markers = useMemo<MapMarker[]>(
    () =>
      latitude !== null && longitude !== null && Number.isFinite(latitude) && Number.isFinite(longitude)
        ? [{ id: 'picked', latitude, longitude, label: `${latitude}, ${longitude}`, tone: 'picked' }]
        : [],
    [latitude, longitude],
  );
  if (!settings.data) return null;
  return (
    <div className="mt-3">
      <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">{t('map.pick_hint')}</p>
      <LeafletMap
        tileUrl={settings.data.tile_url}
        attribution={settings.data.attribution}
        markers={markers}
        label={t('map.pick')}
        onPick={onPick}
        className="h-72"
      />
    </div>
  );
}
