import { zodResolver } from '@hookform/resolvers/zod';
import {
  CustomerCreateSchema,
  CustomerUpdateSchema,
  type Customer,
  type CustomerUpdateInput,
} from '@flowbox/shared';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { DateInput } from '../../../components/forms/DateInput.tsx';
import { NameField } from '../../../components/forms/NameField.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';

const CONTACTS = ['operations_contact', 'technical_contact', 'administrative_contact'] as const;
const FIELDS = ['name', 'subscription_date', ...CONTACTS];

type CustomerValues = z.output<typeof CustomerUpdateSchema>;
type CustomerFormProps = {
  mode: 'create' | 'edit';
  customer?: Customer;
  /** spec docs/permissions.md: a customer manager edits contacts only; name and subscription date are the provider's. */
  contactsOnly?: boolean;
  cancelTo: string;
  onSubmit: (values: CustomerUpdateInput) => Promise<unknown>;
};

function defaultsOf(customer?: Customer): CustomerUpdateInput {
  const contact = (value: Customer['operations_contact'] | undefined) => ({
    name: value?.name ?? '',
    email: value?.email ?? '',
    phone: value?.phone ?? '',
  });
  return {
    name: customer?.name ?? '',
    subscription_date: customer?.subscription_date ?? null,
    operations_contact: contact(customer?.operations_contact),
    technical_contact: contact(customer?.technical_contact),
    administrative_contact: contact(customer?.administrative_contact),
  };
}

/** A contact with nothing filled in is sent as none. */
function payloadOf(values: CustomerValues, contactsOnly: boolean): CustomerUpdateInput {
  const payload: CustomerUpdateInput = {};
  if (!contactsOnly) {
    payload.name = values.name;
    payload.subscription_date = values.subscription_date ?? null;
  }
  for (const key of CONTACTS) {
    const contact = values[key];
    payload[key] = contact && (contact.name || contact.email || contact.phone) ? contact : null;
  }
  return payload;
}

export function CustomerForm({
  mode,
  customer,
  contactsOnly = false,
  cancelTo,
  onSubmit,
}: CustomerFormProps) {
  const { t } = useTranslation();
  const schema = mode === 'create' ? CustomerCreateSchema : CustomerUpdateSchema;
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CustomerUpdateInput, unknown, CustomerValues>({
    // Create asks for the name, update does not: both schemas validate the same fields.
    resolver: zodResolver(schema) as unknown as Resolver<CustomerUpdateInput, unknown, CustomerValues>,
    defaultValues: defaultsOf(customer),
  });

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    await onSubmit(payloadOf(values, contactsOnly));
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <Card title={t('customers.section_general')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <NameField
            disabled={contactsOnly}
            hint={contactsOnly ? t('customers.provider_fields') : undefined}
            error={errors.name}
            {...register('name', { disabled: contactsOnly })}
          />
          <DateInput
            control={control}
            name="subscription_date"
            label={t('fields.subscription_date')}
            disabled={contactsOnly}
            empty={null}
          />
        </div>
      </Card>
      {CONTACTS.map((key) => (
        <Card key={key} title={t(`customers.${key}`)}>
          <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-3">
            <legend className="sr-only">{t(`customers.${key}`)}</legend>
            <TextField
              label={t('fields.contact_name')}
              maxLength={120}
              autoComplete="off"
              error={errors[key]?.name}
              {...register(`${key}.name`)}
            />
            <TextField
              label={t('fields.email')}
              type="email"
              maxLength={254}
              autoComplete="off"
              error={errors[key]?.email}
              {...register(`${key}.email`)}
            />
            <TextField
              label={t('fields.phone')}
              type="tel"
              maxLength={40}
              autoComplete="off"
              error={errors[key]?.phone}
              {...register(`${key}.phone`)}
            />
          </fieldset>
        </Card>
      ))}
      <FormActions>
        <ButtonLink to={cancelTo} variant="secondary">
          {t('common.cancel')}
        </ButtonLink>
        <Button type="submit" loading={isSubmitting}>
          {mode === 'create' ? t('customers.create') : t('common.save')}
        </Button>
      </FormActions>
    </form>
  );
}
