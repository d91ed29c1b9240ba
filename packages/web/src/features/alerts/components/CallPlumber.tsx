import type { Alert } from '@flowbox/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { telHref, useNearestPlumbers } from '../../plumbers/index.ts';

/** "Call a plumber" on an alert: the nearest plumbers of its site, with their phone links (issue 18). */
export function CallPlumberButton({ alert }: { alert: Alert }) {
  const { t, language } = useLanguage();
  const [open, setOpen] = useState(false);
  const km = numberFormat(language, { maximumFractionDigits: 1 });
  const nearest = useNearestPlumbers(alert.customer_id, alert.site_id, open);
  return (
    <>
      <Button variant="secondary" className="px-3 py-1" onClick={() => setOpen(true)}>
        {t('plumbers.call')}
        <span className="sr-only">: {alert.zone_name}</span>
      </Button>
      <Dialog
        open={open}
        title={t('plumbers.call_title', { site: alert.building_name })}
        onClose={() => setOpen(false)}
      >
        <QueryBoundary query={nearest}>
          {(data) =>
            data.site === null ? (
              <p className="text-sm">{t('plumbers.call_unplaced')}</p>
            ) : data.items.length === 0 ? (
              <p className="text-sm">{t('plumbers.call_none')}</p>
            ) : (
              <ul className="divide-y divide-slate-200 dark:divide-slate-700" data-testid="nearest-plumbers">
                {data.items.map((p) => (
                  <li key={p.id} className="py-2 text-sm">
                    <p className="font-medium">{p.company}</p>
                    <p className="text-slate-700 dark:text-slate-300">
                      {t('plumbers.distance', { km: km.format(p.distance_km) })} ·{' '}
                      {p.covers_site ? t('plumbers.covers') : t('plumbers.too_far')}
                    </p>
                    {p.phone && (
                      <a
                        href={telHref(p.phone)}
                        className="whitespace-nowrap text-sky-700 hover:underline dark:text-sky-400"
                        aria-label={t('plumbers.call_phone', { name: p.company, phone: p.phone })}
                      >
                        {p.phone}
                      </a>
                    )}
                  </li>
                ))}
              </ul>
            )
          }
        </QueryBoundary>
        <div className="mt-5 flex justify-end">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            {t('common.close')}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
