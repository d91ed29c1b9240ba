import type { WebhookDelivery, WebhookDeliveryStatus } from '@flowbox/shared';
import { Badge, type BadgeTone } from '../../../components/Badge.tsx';
import { Button } from '../../../components/Button.tsx';
import { LoadingState } from '../../../components/Spinner.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { isTranslationKey } from '../../../lib/i18n/keys.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useWebhookDeliveries } from '../api/list-webhook-deliveries.ts';

const TONE: Record<WebhookDeliveryStatus, BadgeTone> = {
  queued: 'warn',
  sending: 'accent',
  delivered: 'good',
  failed: 'bad',
};

/** A webhook's deliveries, newest first: status, the receiver's answer or the error, tries and next try. */
export function DeliveryLog({ customerId, webhookId }: { customerId: string; webhookId: string }) {
  const { t, language } = useLanguage();
  const deliveries = useWebhookDeliveries(customerId, webhookId);
  if (deliveries.isPending) return <LoadingState />;
  if (deliveries.isError)
    return <p className="text-sm text-red-700 dark:text-red-400">{deliveries.error.message}</p>;
  const items: WebhookDelivery[] = deliveries.data.pages.flatMap((page) => page.items);
  if (items.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-400">{t('webhooks.deliveries_empty')}</p>;
  const eventName = (type: string) => {
    const key = `webhooks.event.${type}`;
    return isTranslationKey(key) ? t(key) : type;
  };
  const CELL_LABEL = 'text-xs text-slate-500 dark:text-slate-400';
  return (
    <div className="space-y-3">
      <ol
        aria-label={t('webhooks.deliveries')}
        className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
      >
        {items.map((delivery) => (
          <li key={delivery.id} className="grid grid-cols-2 gap-x-4 gap-y-1 p-3 text-sm sm:grid-cols-6">
            <div>
              <div className={CELL_LABEL}>{t('webhooks.column.time')}</div>
              {formatDateTime(delivery.created_at, language)}
            </div>
            <div>
              <div className={CELL_LABEL}>{t('webhooks.column.event')}</div>
              {eventName(delivery.event_type)}
            </div>
            <div>
              <div className={CELL_LABEL}>{t('webhooks.column.status')}</div>
              <Badge tone={TONE[delivery.status]}>{t(`webhooks.delivery.${delivery.status}`)}</Badge>
            </div>
            <div className="break-words">
              <div className={CELL_LABEL}>{t('webhooks.column.response')}</div>
              {delivery.response_status !== null
                ? `HTTP ${delivery.response_status}`
                : (delivery.error ?? '—')}
            </div>
            <div>
              <div className={CELL_LABEL}>{t('webhooks.column.attempts')}</div>
              {delivery.attempts}
            </div>
            <div>
              <div className={CELL_LABEL}>{t('webhooks.column.next')}</div>
              {delivery.next_attempt_at ? formatDateTime(delivery.next_attempt_at, language) : '—'}
            </div>
          </li>
        ))}
      </ol>
      {deliveries.hasNextPage && (
        <Button
          variant="secondary"
          loading={deliveries.isFetchingNextPage}
          onClick={() => void deliveries.fetchNextPage()}
        >
          {t('webhooks.deliveries_more')}
        </Button>
      )}
    </div>
  );
}
