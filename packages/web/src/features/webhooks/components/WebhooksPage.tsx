import type { Webhook, WebhookWithSecret } from '@flowbox/shared';
import { useId, useState } from 'react';
import { Badge } from '../../../components/Badge.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { ConfirmActionDialog } from '../../../components/ConfirmActionDialog.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { INPUT_CLASS } from '../../../components/TextField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { useCustomer } from '../../customers/index.ts';
import { useCreateWebhook } from '../api/create-webhook.ts';
import { useDeleteWebhook } from '../api/delete-webhook.ts';
import { useWebhooks } from '../api/list-webhooks.ts';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret.ts';
import { useSendTestEvent } from '../api/send-test-event.ts';
import { useUpdateWebhook } from '../api/update-webhook.ts';
import { DeliveryLog } from './DeliveryLog.tsx';
import { WebhookForm } from './WebhookForm.tsx';

/** The secret of a webhook just created or rotated: shown this once, with a copy button. */
function SecretDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  const { t } = useLanguage();
  const [copied, setCopied] = useState(false);
  const inputId = useId();
  return (
    <Dialog open={secret !== null} onClose={onClose} title={t('webhooks.secret_title')}>
      <p className="text-sm">{t('webhooks.secret_text')}</p>
      <label htmlFor={inputId} className="sr-only">
        {t('webhooks.secret_title')}
      </label>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          readOnly
          value={secret ?? ''}
          onFocus={(e) => e.currentTarget.select()}
          className={`${INPUT_CLASS} font-mono text-xs`}
        />
        <Button
          variant="secondary"
          onClick={() => void navigator.clipboard.writeText(secret ?? '').then(() => setCopied(true))}
        >
          {copied ? t('webhooks.copied') : t('webhooks.copy')}
        </Button>
      </div>
      <div className="mt-5 flex justify-end">
        <Button onClick={onClose}>{t('common.close')}</Button>
      </div>
    </Dialog>
  );
}

type Pending = { kind: 'delete' | 'rotate'; webhook: Webhook } | null;

function WebhookCard({
  customerId,
  webhook,
  onEdit,
  onConfirm,
}: {
  customerId: string;
  webhook: Webhook;
  onEdit: () => void;
  onConfirm: (kind: 'delete' | 'rotate') => void;
}) {
  const { t, language } = useLanguage();
  const toast = useToast();
  const update = useUpdateWebhook(customerId);
  const test = useSendTestEvent(customerId);
  const [showLog, setShowLog] = useState(false);
  const logId = useId();
  const state = webhook.enabled
    ? { tone: 'good' as const, label: t('webhooks.state.enabled') }
    : webhook.disabled_reason === 'failures'
      ? { tone: 'bad' as const, label: t('webhooks.state.disabled_failures') }
      : { tone: 'neutral' as const, label: t('webhooks.state.disabled') };
  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      toast.success(done);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <Card>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 className="font-semibold break-all">{webhook.description || webhook.url}</h2>
          {webhook.description && (
            <p className="text-sm break-all text-slate-600 dark:text-slate-400">{webhook.url}</p>
          )}
          <div className="mt-2 flex flex-wrap gap-1">
            <Badge tone={state.tone}>{state.label}</Badge>
            {webhook.events.map((type) => (
              <Badge key={type}>{t(`webhooks.event.${type}`)}</Badge>
            ))}
          </div>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            {webhook.failing_since
              ? t('webhooks.failing_since', { date: formatDateTime(webhook.failing_since, language) })
              : webhook.last_success_at
                ? t('webhooks.last_success', { date: formatDateTime(webhook.last_success_at, language) })
                : t('webhooks.never_delivered')}
          </p>
        </div>
        <div className="flex flex-wrap gap-2 sm:justify-end">
          <Button variant="secondary" onClick={onEdit}>
            {t('common.edit')}
          </Button>
          <Button
            variant="secondary"
            loading={update.isPending}
            onClick={() =>
              void run(
                () => update.mutateAsync({ id: webhook.id, input: { enabled: !webhook.enabled } }),
                t('webhooks.updated'),
              )
            }
          >
            {webhook.enabled ? t('webhooks.disable') : t('webhooks.enable')}
          </Button>
          <Button
            variant="secondary"
            loading={test.isPending}
            onClick={() =>
              void run(() => test.mutateAsync(webhook.id), t('webhooks.test_sent')).then(() =>
                setShowLog(true),
              )
            }
          >
            {t('webhooks.send_test')}
          </Button>
          <Button variant="secondary" onClick={() => onConfirm('rotate')}>
            {t('webhooks.rotate')}
          </Button>
          <Button variant="danger" onClick={() => onConfirm('delete')}>
            {t('common.delete')}
          </Button>
        </div>
      </div>
      <div className="mt-4">
        <Button
          variant="ghost"
          aria-expanded={showLog}
          aria-controls={logId}
          onClick={() => setShowLog(!showLog)}
        >
          {showLog ? t('webhooks.deliveries_hide') : t('webhooks.deliveries_show')}
        </Button>
        <div id={logId} className="mt-2">
          {showLog && <DeliveryLog customerId={customerId} webhookId={webhook.id} />}
        </div>
      </div>
    </Card>
  );
}

/** A customer's webhooks (docs/webhooks.md): its customer managers' and the provider's. */
export function WebhooksPage() {
  const customerId = useRequiredParam('customerId');
  const { t } = useLanguage();
  const toast = useToast();
  const webhooks = useWebhooks(customerId);
  const customer = useCustomer(customerId);
  const create = useCreateWebhook(customerId);
  const update = useUpdateWebhook(customerId);
  const remove = useDeleteWebhook(customerId);
  const rotate = useRotateWebhookSecret(customerId);
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const showSecret = (created: WebhookWithSecret) => setSecret(created.secret);

  return (
    <>
      <PageHeader
        title={t('webhooks.title')}
        description={t('webhooks.description')}
        breadcrumbs={[
          { label: customer.data?.name ?? t('customers.overview'), to: paths.customer.getHref(customerId) },
        ]}
        actions={<Button onClick={() => setEditing('new')}>{t('webhooks.add')}</Button>}
      />
      <QueryBoundary query={webhooks}>
        {({ items }) =>
          items.length === 0 ? (
            <EmptyState title={t('webhooks.empty')}>{t('webhooks.empty_hint')}</EmptyState>
          ) : (
            <div className="space-y-4">
              {items.map((webhook) => (
                <WebhookCard
                  key={webhook.id}
                  customerId={customerId}
                  webhook={webhook}
                  onEdit={() => setEditing(webhook)}
                  onConfirm={(kind) => setPending({ kind, webhook })}
                />
              ))}
            </div>
          )
        }
      </QueryBoundary>
      <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">{t('webhooks.docs_hint')}</p>
      <Dialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('webhooks.add_title') : t('webhooks.edit_title')}
        wide
      >
        {editing !== null && (
          <WebhookForm
            webhook={editing === 'new' ? undefined : editing}
            onCancel={() => setEditing(null)}
            onSave={async (input) => {
              if (editing === 'new') {
                showSecret(await create.mutateAsync(input));
                toast.success(t('webhooks.created'));
              } else {
                await update.mutateAsync({ id: editing.id, input });
                toast.success(t('webhooks.updated'));
              }
              setEditing(null);
            }}
          />
        )}
      </Dialog>
      <ConfirmActionDialog
        open={pending?.kind === 'delete'}
        title={t('webhooks.delete_title')}
        text={t('webhooks.delete_text')}
        confirmLabel={t('common.delete')}
        onClose={() => setPending(null)}
        onConfirm={async () => {
          await remove.mutateAsync(pending!.webhook.id);
          setPending(null);
          toast.success(t('webhooks.deleted'));
        }}
      />
      <ConfirmActionDialog
        open={pending?.kind === 'rotate'}
        title={t('webhooks.rotate_title')}
        text={t('webhooks.rotate_text')}
        confirmLabel={t('webhooks.rotate')}
        onClose={() => setPending(null)}
        onConfirm={async () => {
          showSecret(await rotate.mutateAsync(pending!.webhook.id));
          setPending(null);
        }}
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
