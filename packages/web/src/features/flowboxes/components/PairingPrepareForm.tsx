import { zodResolver } from '@hookform/resolvers/zod';
import { PairingPrepareSchema, type Flowbox, type Floor, type PairingPrepareInput } from '@flowbox/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { ANY_ROLE, hasRole, useUser } from '../../auth/index.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { usePreparePairing } from '../api/prepare-pairing.ts';

const FIELDS = ['serial', 'factory_secret', 'floor_id'];

type Failure = { message: string; needsSubscription: boolean };

type PairingPrepareFormProps = {
  zoneRef: ZoneRef;
  floors: readonly Floor[] | undefined;
  defaultFloorId: string | null;
  onCancel: () => void;
  onPrepared: (flowbox: Flowbox) => void;
};

/** Step 1/3 "prepare pairing": which device goes in this zone, from its label. */
export function PairingPrepareForm({
  zoneRef,
  floors,
  defaultFloorId,
  onCancel,
  onPrepared,
}: PairingPrepareFormProps) {
  const { t } = useLanguage();
  // A plumber chooses no subscription (docs/permissions.md): the zone's manager does.
  const manager = hasRole(useUser(), ANY_ROLE);
  const prepare = usePreparePairing(zoneRef);
  const [failure, setFailure] = useState<Failure | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PairingPrepareInput>({
    resolver: zodResolver(PairingPrepareSchema),
    defaultValues: { serial: '', factory_secret: '', floor_id: defaultFloorId },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      onPrepared(await prepare.mutateAsync(values));
    } catch (error) {
      setFailure({
        message: applyServerErrors(error, setError, FIELDS),
        // spec §5: a zone needs a subscription before pairing; the way to one is offered at once.
        needsSubscription:
          error instanceof ApiRequestError && error.code === 'errors.zone_without_subscription',
      });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm">{t('pairing.prepare_intro')}</p>
      {failure && (
        <Alert title={t('dialog.error')}>
          {failure.message}
          {failure.needsSubscription && !manager && (
            <span className="mt-2 block">{t('plumberweb.subscription_by_manager')}</span>
          )}
          {failure.needsSubscription && manager && (
            <Link
              to={paths.zoneSubscription.getHref(
                zoneRef.customerId,
                zoneRef.siteId,
                zoneRef.buildingId,
                zoneRef.zoneId,
              )}
              className="mt-2 block font-semibold underline"
            >
              {t('pairing.subscription_link')}
            </Link>
          )}
        </Alert>
      )}
      <TextField
        label={t('flowboxes.serial')}
        required
        maxLength={64}
        autoComplete="off"
        spellCheck={false}
        hint={t('pairing.serial_hint')}
        error={errors.serial}
        {...register('serial')}
      />
      <TextField
        label={t('pairing.factory_secret')}
        required
        autoComplete="off"
        spellCheck={false}
        hint={t('pairing.factory_secret_hint')}
        error={errors.factory_secret}
        {...register('factory_secret')}
      />
      {floors && floors.length > 0 && (
        <Select
          label={t('pairing.floor')}
          placeholder={t('pairing.no_floor')}
          options={floors.map((floor) => ({ value: floor.id, label: floor.label }))}
          error={errors.floor_id}
          {...register('floor_id', { setValueAs: (value: string | null) => value || null })}
        />
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {t('pairing.prepare_submit')}
        </Button>
      </div>
    </form>
  );
}
