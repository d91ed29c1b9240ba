import type { Building, Site, Zone } from '@flowbox/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { LoadingState } from '../../../components/Spinner.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useUser } from '../../auth/index.ts';
import { useBuilding } from '../../buildings/index.ts';
import { useSite } from '../../sites/index.ts';
import { useZone, type ZoneRef } from '../../zones/index.ts';
import {
  forgetProgress,
  parseProgress,
  progressSearch,
  saveProgress,
  savedProgress,
  type AssistantProgress,
  type AssistantStep,
} from '../progress.ts';
import { BuildingStep } from './BuildingStep.tsx';
import { DoneStep } from './DoneStep.tsx';
import { FloorsStep } from './FloorsStep.tsx';
import { SiteStep } from './SiteStep.tsx';
import { Stepper } from './Stepper.tsx';
import { WaterPointsStep } from './WaterPointsStep.tsx';
import { ZoneStep } from './ZoneStep.tsx';
import { AssistantFormsContext, type AssistantForms } from '../forms.ts';

/**
 * spec §2 /assistant: takes a customer from nothing to a zone ready for pairing, site → building →
 * floors → zone → water points, with the normal screens' forms. Each step is saved as it goes.
 */
export function AssistantPage({ forms }: { forms: AssistantForms }) {
  const { t } = useLanguage();
  const user = useUser();
  const [search, setSearch] = useSearchParams();
  const progress = useMemo(() => parseProgress(search), [search]);
  const started = search.size > 0;
  const [resumable] = useState(() => (started ? null : savedProgress(user.id)));

  useEffect(() => {
    if (started) saveProgress(user.id, progress);
  }, [started, progress, user.id]);

  // Saved at once, not after the render: leaving right after a step must not lose it.
  const go = (next: AssistantProgress) => {
    saveProgress(user.id, next);
    setSearch(progressSearch(next));
  };

  return (
    <AssistantFormsContext value={forms}>
      <PageHeader title={t('assistant.title')} description={t('assistant.description')} />
      {!user.customer_id ? (
        <Alert>{t('errors.forbidden')}</Alert>
      ) : resumable && !started ? (
        <Card title={t('assistant.resume.title')}>
          <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">{t('assistant.resume.text')}</p>
          <div className="flex flex-wrap gap-3">
            <Button onClick={() => go(resumable)}>{t('assistant.resume.continue')}</Button>
            <Button
              variant="secondary"
              onClick={() => {
                forgetProgress(user.id);
                go({ step: 'site' });
              }}
            >
              {t('assistant.resume.restart')}
            </Button>
          </div>
        </Card>
      ) : (
        <Run customerId={user.customer_id} progress={progress} go={go} />
      )}
    </AssistantFormsContext>
  );
}

type RunProps = { customerId: string; progress: AssistantProgress; go: (next: AssistantProgress) => void };

function Run({ customerId, progress, go }: RunProps) {
  const { t } = useLanguage();
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  // Screen-reader and keyboard users land on the new step's title, not at the bottom of the old one.
  useEffect(() => {
    if (first.current) first.current = false;
    else heading.current?.focus();
  }, [progress.step]);

  const restart = () => go({ step: 'site' });
  return (
    <>
      <Stepper progress={progress} onGo={(step) => go({ ...progress, step })} />
      <section aria-labelledby="assistant-step" className="space-y-6">
        <div>
          <h2 id="assistant-step" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
            {t(`assistant.step.${progress.step}`)}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {t(`assistant.hint.${progress.step}`)}
          </p>
        </div>
        <Records customerId={customerId} progress={progress} onLost={restart}>
          {(records) => <StepBody customerId={customerId} progress={progress} go={go} records={records} />}
        </Records>
      </section>
    </>
  );
}

type Records = { site?: Site; building?: Building; zone?: Zone };

/**
 * The records a resumed run points at. One deleted since (or out of the user's scope) ends the
 * run with an explanation instead of failing deep inside a step.
 */
function Records({
  customerId,
  progress,
  onLost,
  children,
}: {
  customerId: string;
  progress: AssistantProgress;
  onLost: () => void;
  children: (records: Records) => ReactNode;
}) {
  const { siteId, buildingId, zoneId } = progress;
  if (!siteId) return <>{children({})}</>;
  return (
    <SiteCheck ids={{ customerId, siteId }} onLost={onLost}>
      {(site) =>
        !buildingId ? (
          children({ site })
        ) : (
          <BuildingCheck ids={{ customerId, siteId, buildingId }} onLost={onLost}>
            {(building) =>
              !zoneId ? (
                children({ site, building })
              ) : (
                <ZoneCheck ids={{ customerId, siteId, buildingId, zoneId }} onLost={onLost}>
                  {(zone) => children({ site, building, zone })}
                </ZoneCheck>
              )
            }
          </BuildingCheck>
        )
      }
    </SiteCheck>
  );
}

function SiteCheck({
  ids,
  onLost,
  children,
}: {
  ids: { customerId: string; siteId: string };
  onLost: () => void;
  children: (site: Site) => ReactNode;
}) {
  return (
    <Check query={useSite(ids.customerId, ids.siteId)} onLost={onLost}>
      {children}
    </Check>
  );
}

function BuildingCheck({
  ids,
  onLost,
  children,
}: {
  ids: { customerId: string; siteId: string; buildingId: string };
  onLost: () => void;
  children: (building: Building) => ReactNode;
}) {
  const query = useBuilding(ids.customerId, ids.siteId, ids.buildingId);
  return (
    <Check query={query} onLost={onLost}>
      {children}
    </Check>
  );
}

function ZoneCheck({
  ids,
  onLost,
  children,
}: {
  ids: ZoneRef;
  onLost: () => void;
  children: (zone: Zone) => ReactNode;
}) {
  return (
    <Check query={useZone(ids)} onLost={onLost}>
      {children}
    </Check>
  );
}

function Check<T>({
  query,
  onLost,
  children,
}: {
  query: UseQueryResult<T>;
  onLost: () => void;
  children: (data: T) => ReactNode;
}) {
  const { t } = useLanguage();
  if (query.isPending) return <LoadingState />;
  if (query.isError)
    return (
      <Alert title={t('dialog.error')}>
        <p>{t('assistant.lost', { reason: query.error.message })}</p>
        <Button variant="secondary" className="mt-3" onClick={onLost}>
          {t('assistant.resume.restart')}
        </Button>
      </Alert>
    );
  return <>{children(query.data)}</>;
}

function StepBody({ customerId, progress, go, records }: RunProps & { records: Records }) {
  const { t } = useLanguage();
  const { site, building, zone } = records;
  const to = (step: AssistantStep, patch: Partial<AssistantProgress> = {}) =>
    go({ ...progress, ...patch, step });
  const nav = (back: AssistantStep, next?: { step: AssistantStep; label: string }) => (
    <div className="flex flex-wrap justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
      <Button variant="secondary" onClick={() => to(back)}>
        {t('assistant.back')}
      </Button>
      {next && <Button onClick={() => to(next.step)}>{next.label}</Button>}
    </div>
  );

  switch (progress.step) {
    case 'site':
      return (
        <SiteStep
          customerId={customerId}
          chosenId={site?.id}
          onDone={(chosen) =>
            go(
              chosen.id === site?.id
                ? { ...progress, step: 'building' }
                : { step: 'building', siteId: chosen.id },
            )
          }
        />
      );
    case 'building':
      return (
        <>
          <BuildingStep
            customerId={customerId}
            siteId={site!.id}
            chosenId={building?.id}
            onDone={(chosen) =>
              chosen.id === building?.id
                ? to('floors')
                : go({ step: 'floors', siteId: site!.id, buildingId: chosen.id })
            }
          />
          {nav('site')}
        </>
      );
    case 'floors':
      return (
        <>
          <FloorsStep customerId={customerId} siteId={site!.id} buildingId={building!.id} />
          {nav('building', { step: 'zone', label: t('assistant.next') })}
        </>
      );
    case 'zone':
      return (
        <>
          <ZoneStep
            customerId={customerId}
            siteId={site!.id}
            buildingId={building!.id}
            chosenId={zone?.id}
            onDone={(chosen) => to('water-points', { zoneId: chosen.id })}
          />
          {nav('floors')}
        </>
      );
    case 'water-points':
      return (
        <>
          <WaterPointsStep
            zone={{ customerId, siteId: site!.id, buildingId: building!.id, zoneId: zone!.id }}
          />
          {nav('zone', { step: 'done', label: t('assistant.finish') })}
        </>
      );
    case 'done':
      return (
        <DoneStep
          site={site!}
          building={building!}
          zone={zone!}
          onAnotherZone={() => go({ step: 'zone', siteId: site!.id, buildingId: building!.id })}
        />
      );
  }
}
