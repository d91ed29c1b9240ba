import type { Floor, Zone } from '@flowbox/shared';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { canDo, MANAGER_OR_PLUMBER, useUser } from '../../auth/index.ts';
import { useAutomation } from '../../automation/index.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { useFlowboxes } from '../../zones/index.ts';
import { ConnectionBadge, PairingBadge } from './FlowboxBadges.tsx';
import { PairingDialog } from './PairingDialog.tsx';

type FlowboxesSectionProps = { zoneRef: ZoneRef; zone: Zone; floors: readonly Floor[] | undefined };

/** The zone overview's Flowbox section: its flowboxes, live, and where pairing starts (spec §4). */
export function FlowboxesSection({ zoneRef, zone, floors }: FlowboxesSectionProps) {
  const { t, language } = useLanguage();
  const user = useUser();
  const flowboxes = useFlowboxes(zoneRef);
  // docs/permissions.md: a plumber runs the three pairing steps on its sites (issue 18).
  const mayPair = canDo(user, MANAGER_OR_PLUMBER, 'flowboxes.pair');
  // spec §4: pairing is a change under the zone, refused while automatic closing holds it.
  const locked = useAutomation(zoneRef).data?.locked === true;
  const lockReasonId = useId();
  const lockedProps = { disabled: locked, 'aria-describedby': locked ? lockReasonId : undefined };
  // Which flowbox the pairing window follows; null while step 1 has not created one.
  const [pairing, setPairing] = useState<{ flowboxId: string | null } | null>(null);
  const { customerId, siteId, buildingId, zoneId } = zoneRef;
  // A zone holds several flowboxes (spec §1): on a zone that has one, the button adds another
  // (issue 30: "Pair a flowbox" on a paired zone read as if it had none).
  const hasFlowbox = (flowboxes.data?.items.length ?? 0) > 0;

  return (
    <Card
      title={t('flowboxes.title')}
      actions={
        mayPair && (
          <Button variant="secondary" {...lockedProps} onClick={() => setPairing({ flowboxId: null })}>
            {hasFlowbox ? t('flowboxes.pair_another') : t('flowboxes.pair')}
          </Button>
        )
      }
    >
      <QueryBoundary query={flowboxes}>
        {({ items }) => (
          <>
            {items.length === 0 ? (
              <EmptyState title={t('flowboxes.none')}>
                {t('flowboxes.none_text', {
                  model: t(`zones.flowbox_model.${zone.flowbox_model}`),
                  water: t(`zones.water_temperature.${zone.water_temperature}`).toLocaleLowerCase(language),
                })}
              </EmptyState>
            ) : (
              <ul
                aria-label={t('flowboxes.list_caption')}
                className="divide-y divide-slate-100 dark:divide-slate-800"
              >
                {items.map((flowbox) => (
                  <li key={flowbox.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                    <div className="min-w-0 space-y-1">
                      <Link
                        to={paths.flowbox.getHref(customerId, siteId, buildingId, zoneId, flowbox.id)}
                        className="block font-mono font-semibold text-sky-700 hover:underline dark:text-sky-400"
                      >
                        {flowbox.serial}
                      </Link>
                      <span className="flex flex-wrap gap-2">
                        <PairingBadge flowbox={flowbox} />
                        {flowbox.pairing_state === 'ready' && <ConnectionBadge flowbox={flowbox} />}
                      </span>
                    </div>
                    {mayPair && flowbox.pairing_state !== 'ready' && (
                      <Button
                        variant="secondary"
                        {...lockedProps}
                        onClick={() => setPairing({ flowboxId: flowbox.id })}
                      >
                        {t('flowboxes.continue_pairing')}
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {!mayPair && (
              <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">{t('flowboxes.pair_denied')}</p>
            )}
            {mayPair && locked && (
              <p id={lockReasonId} className="mt-3 text-xs text-slate-500 dark:text-slate-400">
                {t('commands.locked')}
              </p>
            )}
            {mayPair && (
              <PairingDialog
                open={pairing !== null}
                zoneRef={zoneRef}
                zone={zone}
                floors={floors}
                flowbox={items.find((flowbox) => flowbox.id === pairing?.flowboxId)}
                onPrepared={(flowbox) => setPairing({ flowboxId: flowbox.id })}
                onClose={() => setPairing(null)}
              />
            )}
          </>
        )}
      </QueryBoundary>
    </Card>
  );
}
