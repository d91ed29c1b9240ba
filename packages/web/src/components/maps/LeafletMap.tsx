import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import { leafletCredit, leafletText } from './leaflet-text.ts';

export type MapMarker = {
  id: string;
  latitude: number;
  longitude: number;
  /** What the marker's popup and tooltip say (plain text). */
  label: string;
  /** Its colour: a site's state, or a plumber. */
  tone: 'alert' | 'warning' | 'ok' | 'plumber' | 'picked';
};

export const TONE_COLOURS: Record<MapMarker['tone'], string> = {
  alert: '#b91c1c',
  warning: '#b45309',
  ok: '#15803d',
  plumber: '#0369a1',
  picked: '#7c3aed',
};

type LeafletMapProps = {
  tileUrl: string;
  attribution: string;
  markers: readonly MapMarker[];
  /** The map's accessible name; the page gives the same facts as a list beside it. */
  label: string;
  /** When given, a click on the map reports its coordinates (placing a site or a plumber). */
  onPick?: (latitude: number, longitude: number) => void;
  className?: string;
};

/** Europe, when there is nothing to show. */
const DEFAULT_VIEW: [number, number] = [46.5, 2.5];

/**
 * A Leaflet map (docs/maps.md): tiles from the configured server, one circle per marker. Only map
 * pages import this module, so Leaflet stays out of every other chunk.
 */
export function LeafletMap({
  tileUrl,
  attribution,
  markers,
  label,
  onPick,
  className = '',
}: LeafletMapProps) {
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);

  useEffect(() => {
    if (!element.current) return;
    // Leaflet's own attribution corner writes its credits as HTML: this one holds text and links.
    const created = L.map(element.current, { center: DEFAULT_VIEW, zoom: 5, attributionControl: false });
    L.tileLayer(tileUrl, { maxZoom: 19 }).addTo(created);
    const credit = new L.Control({ position: 'bottomright' });
    credit.onAdd = () => {
      const corner = L.DomUtil.create('div', 'leaflet-control-attribution');
      corner.append(leafletCredit(attribution));
      return corner;
    };
    credit.addTo(created);
    layer.current = L.layerGroup().addTo(created);
    created.on('click', (event: L.LeafletMouseEvent) =>
      pick.current?.(round(event.latlng.lat), round(event.latlng.lng)),
    );
    map.current = created;
    return () => {
      created.remove();
      map.current = null;
    };
  }, [tileUrl, attribution]);

  useEffect(() => {
    const group = layer.current;
    const current = map.current;
    if (!group || !current) return;
    group.clearLayers();
    for (const marker of markers) {
      L.circleMarker([marker.latitude, marker.longitude], {
        radius: marker.tone === 'plumber' ? 7 : 9,
        color: '#ffffff',
        weight: 2,
        fillColor: TONE_COLOURS[marker.tone],
        fillOpacity: 0.95,
        className: `map-marker map-marker-${marker.tone}`,
      })
        .bindTooltip(leafletText(marker.label))
        .addTo(group);
    }
    if (markers.length === 1) current.setView([markers[0]!.latitude, markers[0]!.longitude], 12);
    else if (markers.length > 1)
      current.fitBounds(L.latLngBounds(markers.map((m) => [m.latitude, m.longitude])), {
        padding: [30, 30],
        maxZoom: 13,
      });
  }, [markers]);

  return (
    <div
      ref={element}
      role="region"
      aria-label={label}
      data-testid="leaflet-map"
      className={`h-96 w-full rounded-lg border border-slate-300 dark:border-slate-700 ${className}`}
    />
  );
}

/** Six decimals: about 10 cm, as much as a click means. */
function round(degrees: number): number {
  return Math.round(degrees * 1e6) / 1e6;
}

/** The colour dot of a legend or a list line. */
export function ToneDot({ tone }: { tone: MapMarker['tone'] }) {
  return (
    <span
      aria-hidden="true"
      className="inline-block h-3 w-3 rounded-full align-middle"
      style={{ backgroundColor: TONE_COLOURS[tone] }}
    />
  );
}
