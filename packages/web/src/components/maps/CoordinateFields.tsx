import { lazy, Suspense, useState } from 'react';
import type { FieldError } from 'react-hook-form';
import { Button } from '../Button.tsx';
import { Spinner } from '../Spinner.tsx';
import { TextField } from '../TextField.tsx';
import { useLanguage } from '../../lib/i18n/index.ts';

// Leaflet comes only with the map, when the user opens it.
const MapPicker = lazy(() => import('./MapPicker.tsx'));

/** Typed text to the API's number or null: '' clears the coordinate. */
export const coordinateValue = (value: unknown) =>
  value === '' || value === null || value === undefined ? null : Number(String(value).replace(',', '.'));

type Props = {
  latitude: { value: number | null; error?: FieldError; input: Record<string, unknown> };
  longitude: { value: number | null; error?: FieldError; input: Record<string, unknown> };
  onPick: (latitude: number, longitude: number) => void;
};

/** Latitude and longitude, typed or set by a click on a map opened on demand (docs/maps.md). */
export function CoordinateFields({ latitude, longitude, onPick }: Props) {
  const { t } = useLanguage();
  const [open, setOpen] = useState(false);
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">
        {t('fields.coordinates')}
      </legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('plumbers.latitude')}
          name="latitude"
          inputMode="decimal"
          error={latitude.error}
          hint={t('plumbers.coordinates_hint')}
          {...latitude.input}
        />
        <TextField
          label={t('plumbers.longitude')}
          name="longitude"
          inputMode="decimal"
          error={longitude.error}
          {...longitude.input}
        />
      </div>
      {!open ? (
        <Button variant="secondary" className="mt-3" onClick={() => setOpen(true)}>
          {t('map.pick')}
        </Button>
      ) : (
        <Suspense fallback={<Spinner />}>
          <MapPicker latitude={latitude.value} longitude={longitude.value} onPick={onPick} />
        </Suspense>
      )}
    </fieldset>
  );
}
