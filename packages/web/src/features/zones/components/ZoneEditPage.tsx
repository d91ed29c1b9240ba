import type { BacktestRequestInput } from '@flowbox/shared';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { changesOf } from '../../../lib/form-values.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import { useBuilding, useFloors } from '../../buildings/index.ts';
import { useZone, type ZoneRef } from '../api/get-zone.ts';
import { useUpdateZone } from '../api/update-zone.ts';
import { zoneFormValues, type ZoneValues } from '../form-values.ts';
import { useZoneCrumbs } from './useZoneCrumbs.ts';
import { useZoneRef } from './useZoneRef.ts';
import { ZoneForm } from './ZoneForm.tsx';

/**
 * A zone's settings. A new profile or new hours are first tried on the zone's last 30 days by
 * automatic closing's backtest (`backtest`, lent by the app: app/routes/zones.tsx).
 */
export function ZoneEditPage({
  backtest,
}: {
  backtest: (zoneRef: ZoneRef, request: BacktestRequestInput) => ReactNode;
}) {
  const { t } = useLanguage();
  const ref = useZoneRef();
  const { customerId, siteId, buildingId, zoneId } = ref;
  const navigate = useNavigate();
  const toast = useToast();
  const zone = useZone(ref);
  const building = useBuilding(customerId, siteId, buildingId);
  const floors = useFloors(customerId, siteId, buildingId);
  const update = useUpdateZone(ref);
  const overview = paths.zone.getHref(customerId, siteId, buildingId, zoneId);
  const user = useUser();
  // A new profile or new hours change the margins detection applies (issue 29): tried on the zone's
  // last 30 days before they are saved, by whoever may manage its automatic closing.
  const [trying, setTrying] = useState<{
    changes: Partial<ZoneValues>;
    settle: (saved: Promise<void>) => void;
  } | null>(null);
  // Left without saving: the form is as it was, its values kept.
  const leave = () => {
    trying?.settle(Promise.resolve());
    setTrying(null);
  };
  async function save(changes: Partial<ZoneValues>) {
    if (Object.keys(changes).length === 0) {
      toast.success(t('zones.toast_unchanged'));
    } else {
      await update.mutateAsync(changes);
      toast.success(t('zones.toast_updated'));
    }
    await navigate(overview);
  }
  return (
    <>
      <PageHeader title={t('zones.edit')} breadcrumbs={useZoneCrumbs(ref)} />
      <QueryBoundary query={zone}>
        {(zoneData) => (
          <QueryBoundary query={building}>
            {(buildingData) => (
              <QueryBoundary query={floors}>
                {(floorList) => (
                  <ZoneForm
                    building={buildingData}
                    floors={floorList.items}
                    defaultValues={zoneFormValues(zoneData)}
                    submitLabel={t('common.save')}
                    cancelTo={overview}
                    onSubmit={async (values) => {
                      const changes = changesOf(zoneData, values);
                      const detection = 'profile' in changes || 'opening_hours' in changes;
                      if (!detection || !canDo(user, ANY_ROLE, 'automation.manage')) return save(changes);
                      // The form waits, its button busy, until the test is saved (the form shows
                      // the save's errors) or left.
                      return new Promise<void>((resolve, reject) =>
                        setTrying({
                          changes,
                          settle: (saved) => {
                            saved.then(resolve, reject);
                          },
                        }),
                      );
                    }}
                  />
                )}
              </QueryBoundary>
            )}
          </QueryBoundary>
        )}
      </QueryBoundary>
      {trying && (
        <Dialog open wide title={t('automation.backtest_zone_title')} onClose={leave}>
          <div className="space-y-4">
            {backtest(ref, {
              days: 30,
              ...('profile' in trying.changes ? { profile: trying.changes.profile } : {}),
              ...('opening_hours' in trying.changes
                ? { opening_hours: trying.changes.opening_hours ?? null }
                : {}),
            })}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={leave}>
                {t('automation.backtest_back')}
              </Button>
              <Button
                onClick={() => {
                  trying.settle(save(trying.changes));
                  setTrying(null);
                }}
              >
                {t('common.save')}
              </Button>
            </div>
          </div>
        </Dialog>
      )}
    </>
  );
}
