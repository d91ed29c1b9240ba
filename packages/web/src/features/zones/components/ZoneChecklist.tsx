import { Link } from 'react-router';
import { Card } from '../../../components/Card.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import type { ZoneRef } from '../api/get-zone.ts';
import { useZoneReadiness, ZONE_SECTION } from './useZoneReadiness.ts';

type Step = {
  key: string;
  done: boolean | undefined;
  label: string;
  hint: string;
  href: string;
  action: string;
};

/**
 * What the zone still needs before it is watched (issue 15): a subscription, a paired flowbox
 * (which needs the subscription first), automatic closing set up; each ticked when done, with a
 * link to where it is done. `always`: shown even when nothing is missing (the assistant's end).
 */
export type ZoneChecklistProps = { zoneRef: ZoneRef; always?: boolean };

export function ZoneChecklist({ zoneRef, always = false }: ZoneChecklistProps) {
  const { t } = useLanguage();
  const { subscribed, pairedFlowboxes, automaticClosing } = useZoneReadiness(zoneRef);
  const { customerId, siteId, buildingId, zoneId } = zoneRef;
  const zoneHref = paths.zone.getHref(customerId, siteId, buildingId, zoneId);
  const paired = pairedFlowboxes === undefined ? undefined : pairedFlowboxes.length > 0;
  const steps: Step[] = [
    {
      key: 'subscription',
      done: subscribed,
      label: t('zones.checklist.subscription'),
      hint: t('zones.checklist.subscription_hint'),
      href: paths.zoneSubscription.getHref(customerId, siteId, buildingId, zoneId),
      action: t('zones.checklist.subscription_action'),
    },
    {
      key: 'flowbox',
      done: paired,
      label: t('zones.checklist.flowbox'),
      hint:
        subscribed === false
          ? t('zones.checklist.flowbox_needs_subscription')
          : t('zones.checklist.flowbox_hint'),
      href: `${zoneHref}#${ZONE_SECTION.flowboxes}`,
      action: t('zones.checklist.flowbox_action'),
    },
    {
      key: 'automation',
      done: automaticClosing,
      label: t('zones.checklist.automation'),
      hint: t('zones.checklist.automation_hint'),
      href: `${zoneHref}#${ZONE_SECTION.automation}`,
      action: t('zones.checklist.automation_action'),
    },
  ];
  if (steps.some((s) => s.done === undefined)) return null;
  const missing = steps.filter((s) => !s.done).length;
  if (missing === 0 && !always) return null;
  return (
    <div data-testid="zone-checklist">
      <Card
        title={
          missing === 0 ? t('zones.checklist.title_ready') : t('zones.checklist.title', { count: missing })
        }
      >
        <ol className="space-y-3">
          {steps.map((step) => (
            <li
              key={step.key}
              className="flex items-start gap-3"
              data-testid={`checklist-${step.key}`}
              data-done={step.done}
            >
              <span
                aria-hidden="true"
                className={`mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full border text-xs ${
                  step.done
                    ? 'border-emerald-600 bg-emerald-600 text-white'
                    : 'border-slate-400 text-transparent dark:border-slate-500'
                }`}
              >
                ✓
              </span>
              <div className="min-w-0 text-sm">
                <p className="font-medium">
                  {step.label}
                  <span className="sr-only">
                    {' — '}
                    {step.done ? t('zones.checklist.done') : t('zones.checklist.to_do')}
                  </span>
                </p>
                {!step.done && (
                  <>
                    <p className="text-slate-600 dark:text-slate-400">{step.hint}</p>
                    <Link
                      to={step.href}
                      className="font-medium text-sky-700 hover:underline dark:text-sky-400"
                    >
                      {step.action}
                    </Link>
                  </>
                )}
              </div>
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}
