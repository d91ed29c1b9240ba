import { useNavigate } from 'react-router';
import { Card } from '../../../components/Card.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useZone, useZoneRef } from '../../zones/index.ts';
import { useSchedule } from '../api/get-schedule.ts';
import { useUpdateSchedule } from '../api/update-schedule.ts';
import { NotAuthorisedNotice } from './NotAuthorisedNotice.tsx';
import { ScheduleForm } from './ScheduleForm.tsx';
import { useWayBack } from './useWayBack.ts';
import { useScheduleId } from './useScheduleRef.ts';

export function ScheduleEditPage() {
  const { t } = useLanguage();
  const ref = useZoneRef();
  const id = useScheduleId();
  const zone = useZone(ref);
  const schedule = useSchedule(ref, id);
  const navigate = useNavigate();
  const toast = useToast();
  const update = useUpdateSchedule(ref, id);
  const { back, crumbs } = useWayBack(ref);
  return (
    <>
      <PageHeader title={t('schedules.edit')} breadcrumbs={crumbs} />
      <QueryBoundary query={zone}>
        {(zoneData) =>
          zoneData.scheduled_closing_authorised ? (
            <QueryBoundary query={schedule}>
              {(data) => (
                <Card>
                  <ScheduleForm
                    defaultValues={{
                      label: data.label,
                      date_start: data.date_start,
                      date_end: data.date_end,
                      closing_time: data.closing_time,
                      opening_time: data.opening_time,
                      recurring: data.recurring,
                      frequency: data.frequency ?? 'weekly',
                      interval: data.interval,
                      weekdays: data.weekdays,
                    }}
                    submitLabel={t('common.save')}
                    cancelTo={back}
                    onSubmit={async (values) => {
                      await update.mutateAsync(values);
                      toast.success(t('schedules.toast_updated'));
                      await navigate(back);
                    }}
                  />
                </Card>
              )}
            </QueryBoundary>
          ) : (
            <NotAuthorisedNotice zoneRef={ref} />
          )
        }
      </QueryBoundary>
    </>
  );
}
