import type { Schedule } from '@flowbox/shared';
import { useState } from 'react';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { canDo, MANAGER_OR_END_USER, useUser } from '../../auth/index.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { useDeleteSchedule } from '../api/delete-schedule.ts';
import { useOccurrences } from '../api/get-occurrences.ts';
import { useSchedules } from '../api/list-schedules.ts';
import { durationText, localDateTime, periodText, ruleText } from '../format.ts';
import { NotAuthorisedNotice } from './NotAuthorisedNotice.tsx';
import { useSchedulesLive } from './useSchedulesLive.ts';

/** The next closing windows of the zone, in the building's wall-clock time. */
function NextClosings({ zoneRef }: { zoneRef: ZoneRef }) {
  const { t, language } = useLanguage();
  const occurrences = useOccurrences(zoneRef, 5);
  return (
    <QueryBoundary query={occurrences}>
      {(data) => (
        <div>
          <h3 className="text-sm font-semibold">{t('schedules.next')}</h3>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {t('schedules.timezone', { timezone: data.timezone })}
          </p>
          {data.items.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('schedules.next_empty')}</p>
          ) : (
            <ol
              className="mt-2 space-y-1 text-sm"
              aria-label={t('schedules.next')}
              data-testid="next-closings"
            >
              {data.items.map((o) => (
                <li key={`${o.schedule_id}-${o.start}`} className="flex flex-wrap items-center gap-x-2">
                  <span className="font-medium">{o.label}</span>
                  <span>
                    {t('schedules.from_to', {
                      start: localDateTime(o.local_start, language),
                      end: localDateTime(o.local_end, language),
                    })}
                  </span>
                  {o.status === 'running' && (
                    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">
                      {t('schedules.running')}
                    </span>
                  )}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </QueryBoundary>
  );
}

/**
 * The zone's scheduled closings on its overview: next windows, the schedules, add/edit/delete; live
 * (a window starting or ending, a schedule changed elsewhere, show at once).
 */
export function ZoneSchedulesCard({ zoneRef, authorised }: { zoneRef: ZoneRef; authorised: boolean }) {
  const { t, language } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const schedules = useSchedules(zoneRef);
  useSchedulesLive(zoneRef);
  const remove = useDeleteSchedule(zoneRef);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const { customerId, siteId, buildingId, zoneId } = zoneRef;
  // docs/permissions.md: a zone's managers, and its end users granted the permission.
  const manages = canDo(user, MANAGER_OR_END_USER, 'schedules.manage');

  const columns: Column<Schedule>[] = [
    { key: 'label', header: t('schedules.label'), rowHeader: true, cell: (s) => s.label },
    { key: 'rule', header: t('schedules.rule'), cell: (s) => ruleText(s, t) },
    {
      key: 'period',
      header: t('schedules.period'),
      hideOnMobile: true,
      cell: (s) => periodText(s, language, t),
    },
    {
      key: 'times',
      header: t('schedules.times'),
      cell: (s) =>
        t('schedules.times_value', {
          closing: s.closing_time,
          opening: s.opening_time,
          duration: durationText(s.duration_minutes, t),
        }),
    },
  ];
  if (manages) {
    columns.push({
      key: 'actions',
      header: t('common.actions'),
      cell: (s) => (
        <div className="flex flex-wrap gap-1">
          {authorised && (
            <ButtonLink
              variant="ghost"
              to={paths.scheduleEdit.getHref(customerId, siteId, buildingId, zoneId, s.id)}
              aria-label={t('schedules.edit_named', { label: s.label })}
            >
              {t('common.edit')}
            </ButtonLink>
          )}
          <Button
            variant="ghost"
            className="text-red-700! dark:text-red-400!"
            aria-label={t('schedules.delete_named', { label: s.label })}
            onClick={() => setDeleting(s)}
          >
            {t('common.delete')}
          </Button>
        </div>
      ),
    });
  }

  return (
    <Card
      title={t('schedules.title')}
      actions={
        manages &&
        authorised && (
          <ButtonLink
            to={paths.scheduleAdd.getHref(customerId, siteId, buildingId, zoneId)}
            variant="secondary"
          >
            {t('schedules.add')}
          </ButtonLink>
        )
      }
    >
      <div className="space-y-4">
        <QueryBoundary query={schedules}>
          {(data) => (
            <>
              {!authorised && (
                <NotAuthorisedNotice
                  zoneRef={zoneRef}
                  extra={data.total > 0 ? t('schedules.not_authorised_existing') : undefined}
                />
              )}
              {data.total === 0 ? (
                authorised && (
                  <EmptyState title={t('schedules.empty')}>{manages && t('schedules.empty_hint')}</EmptyState>
                )
              ) : (
                <>
                  {authorised && <NextClosings zoneRef={zoneRef} />}
                  <DataTable
                    caption={t('schedules.list')}
                    columns={columns}
                    rows={data.items}
                    rowKey={(s) => s.id}
                    empty={t('schedules.empty')}
                  />
                </>
              )}
            </>
          )}
        </QueryBoundary>
      </div>
      {manages && (
        <ConfirmDeleteDialog
          open={deleting !== null}
          onClose={() => setDeleting(null)}
          name={deleting?.label ?? ''}
          consequence={t('schedules.delete_consequence')}
          onConfirm={async (confirmName) => {
            if (!deleting) return;
            await remove.mutateAsync({ id: deleting.id, confirmName });
            setDeleting(null);
            toast.success(t('schedules.toast_deleted'));
          }}
        />
      )}
    </Card>
  );
}
