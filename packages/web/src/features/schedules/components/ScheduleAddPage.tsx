import { useNavigate } from 'react-router';
import { Card } from '../../../components/Card.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useZone, useZoneRef } from '../../zones/index.ts';
import { useCreateSchedule } from '../api/create-schedule.ts';
import { NotAuthorisedNotice } from './NotAuthorisedNotice.tsx';
import { ScheduleForm } from './ScheduleForm.tsx';
import { useWayBack } from './useWayBack.ts';

/** spec §2 `.../zone/{zoneId}/schedules/add`: create a scheduled closing. */
export function ScheduleAddPage() {
  const { t } = useLanguage();
  const ref = useZoneRef();
  const zone = useZone(ref);
  const navigate = useNavigate();
  const toast = useToast();
  const create = useCreateSchedule(ref);
  const { back, crumbs } = useWayBack(ref);
  return (
    <>
      <PageHeader title={t('schedules.add')} description={t('schedules.description')} breadcrumbs={crumbs} />
      <QueryBoundary query={zone}>
        {(data) =>
          data.scheduled_closing_authorised ? (
            <Card>
              <ScheduleForm
                submitLabel={t('schedules.create')}
                cancelTo={back}
                onSubmit={async (values) => {
                  await create.mutateAsync(values);
                  toast.success(t('schedules.toast_created'));
                  await navigate(back);
                }}
              />
            </Card>
          ) : (
            <NotAuthorisedNotice zoneRef={ref} />
          )
        }
      </QueryBoundary>
    </>
  );
}
