import { zodResolver } from '@hookform/resolvers/zod';
import { WEBHOOK_EVENT_TYPES, WebhookCreateSchema, type Webhook, type WebhookCreate } from '@flowbox/shared';
import { useForm, type FieldError as HookFieldError } from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { FieldError } from '../../../components/FieldError.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';

const FIELDS = ['url', 'events', 'description', 'enabled'] as const;

/** A webhook's address, events, description and enabled flag: added, or changed. */
export function WebhookForm({
  webhook,
  onSave,
  onCancel,
}: {
  webhook?: Webhook;
  onSave: (input: WebhookCreate) => Promise<unknown>;
  onCancel: () => void;
}) {
  const { t } = useLanguage();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof WebhookCreateSchema>, unknown, WebhookCreate>({
    resolver: zodResolver(WebhookCreateSchema),
    defaultValues: {
      url: webhook?.url ?? '',
      description: webhook?.description ?? '',
      events: webhook?.events ?? ['alert.opened', 'alert.resolved'],
      enabled: webhook?.enabled ?? true,
    },
  });
  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, onSave);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <TextField
        label={t('webhooks.url')}
        type="url"
        required
        placeholder="https://"
        autoComplete="off"
        error={errors.url}
        {...register('url')}
      />
      <TextField
        label={t('webhooks.description_field')}
        error={errors.description}
        {...register('description')}
      />
      <fieldset aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
        <legend className="text-sm font-medium">{t('webhooks.events')}</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <Checkbox key={type} label={t(`webhooks.event.${type}`)} value={type} {...register('events')} />
          ))}
        </div>
        <FieldError id="webhook-events-error" error={errors.events as HookFieldError | undefined} />
      </fieldset>
      <Checkbox label={t('webhooks.enabled')} {...register('enabled')} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}
