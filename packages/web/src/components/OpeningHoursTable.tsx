import type { OpeningInterval, Weekday } from '@flowbox/shared';
import { useTranslation } from 'react-i18next';
import { weekFrom } from './forms/OpeningHoursField.tsx';
import { TableScroll } from './TableScroll.tsx';

type OpeningHoursTableProps = {
  hours: Record<Weekday, OpeningInterval[]>;
  firstDayOfWeek?: Weekday;
  /** Weekend days are marked, as the building declares them. */
  weekend?: readonly Weekday[];
};

/** Opening hours read as a week: one row a day, its intervals or "Closed". */
export function OpeningHoursTable({ hours, firstDayOfWeek, weekend = [] }: OpeningHoursTableProps) {
  const { t } = useTranslation();
  return (
    <TableScroll label={t('buildings.hours_caption')}>
      <table className="w-full text-sm">
        <caption className="sr-only">{t('buildings.hours_caption')}</caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">{t('buildings.hours_day')}</th>
            <th scope="col">{t('buildings.hours_intervals')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {weekFrom(firstDayOfWeek).map((day) => {
            const intervals = hours[day];
            return (
              <tr key={day}>
                <th scope="row" className="w-1/3 py-2 pr-4 text-left font-medium">
                  {t(`buildings.day.${day}`)}
                  {weekend.includes(day) && (
                    <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                      {t('buildings.weekend_day')}
                    </span>
                  )}
                </th>
                <td className="py-2">
                  {intervals.length === 0 ? (
                    <span className="text-slate-500 dark:text-slate-400">{t('buildings.hours_closed')}</span>
                  ) : (
                    intervals.map((interval) => `${interval.start}–${interval.end}`).join(', ')
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
