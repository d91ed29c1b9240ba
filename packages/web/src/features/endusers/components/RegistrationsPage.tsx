import type { Registration } from '@flowbox/shared';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { Select } from '../../../components/Select.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useCustomerZones } from '../../dashboard/index.ts';
import { useDecideRegistration } from '../api/decide-registration.ts';
import { useIssueClaimCode } from '../api/issue-claim-code.ts';
import { useRegistrations } from '../api/list-registrations.ts';
import { ClaimCodesList } from './ClaimCodesList.tsx';

/** Issuing a claim code for one of the zones in scope (the code is shown once); the zone's codes below. */
function ClaimCodeForm({ customerId }: { customerId: string }) {
  const { t } = useLanguage();
  const zones = useCustomerZones(customerId);
  const issue = useIssueClaimCode();
  const [zoneId, setZoneId] = useState('');
  const [multi, setMulti] = useState(false);
  const [autoApprove, setAutoApprove] = useState(false);
  const [code, setCode] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const zone = zones.data?.items.find((z) => z.id === zoneId);
  const zoneRef = zone
    ? { customerId, siteId: zone.site_id, buildingId: zone.building_id, zoneId: zone.id }
    : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!zoneRef) return setFailure(t('endusers.choose_zone'));
    setFailure(null);
    try {
      const issued = await issue.mutateAsync({
        zone: zoneRef,
        body: { max_uses: multi ? null : 1, auto_approve: autoApprove },
      });
      setCode(issued.code);
    } catch (error) {
      setFailure(error instanceof ApiRequestError ? error.message : t('errors.api_error'));
    }
  };

  return (
    <Card title={t('endusers.claim_code_title')}>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">{t('endusers.claim_code_help')}</p>
      <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {failure && (
          <div className="sm:col-span-2">
            <Alert title={t('dialog.error')}>{failure}</Alert>
          </div>
        )}
        <Select
          label={t('endusers.zone')}
          name="zone_id"
          required
          placeholder={t('endusers.choose_zone')}
          value={zoneId}
          onChange={(e) => setZoneId(e.target.value)}
          options={(zones.data?.items ?? []).map((z) => ({
            value: z.id,
            label: `${z.site_name} · ${z.building_name} · ${z.name}`,
          }))}
        />
        <div className="space-y-2">
          <Checkbox
            name="multi_use"
            label={t('endusers.multi_use')}
            checked={multi}
            onChange={(e) => setMulti(e.target.checked)}
          />
          <Checkbox
            name="auto_approve"
            label={t('endusers.auto_approve')}
            checked={autoApprove}
            onChange={(e) => setAutoApprove(e.target.checked)}
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" loading={issue.isPending}>
            {t('endusers.issue')}
          </Button>
        </div>
      </form>
      {code && (
        <div className="mt-4">
          <Alert tone="success" title={t('endusers.code_issued')}>
            <span className="font-mono text-lg tracking-widest" data-testid="claim-code">
              {code}
            </span>
          </Alert>
        </div>
      )}
      {zoneRef && <ClaimCodesList zone={zoneRef} />}
    </Card>
  );
}

/** spec §1, issue #18: a customer's or site's managers review the registrations of their zones. */
export function RegistrationsPage() {
  const { t, language } = useLanguage();
  const { customerId = '' } = useParams();
  const registrations = useRegistrations(customerId);
  const decide = useDecideRegistration(customerId);
  const toast = useToast();

  const act = async (registration: Registration, decision: 'approve' | 'refuse') => {
    try {
      await decide.mutateAsync({ id: registration.id, decision });
      toast.success(t(decision === 'approve' ? 'endusers.approved' : 'endusers.refused'));
    } catch (error) {
      toast.error(error instanceof ApiRequestError ? error.message : t('errors.api_error'));
    }
  };

  const columns: Column<Registration>[] = [
    { key: 'name', header: t('fields.name'), rowHeader: true, cell: (r) => `${r.firstname} ${r.lastname}` },
    { key: 'email', header: t('fields.email'), cell: (r) => r.email },
    { key: 'zone', header: t('endusers.zone'), cell: (r) => `${r.site_name} · ${r.zone_name}` },
    {
      key: 'date',
      header: t('endusers.confirmed_at'),
      hideOnMobile: true,
      cell: (r) => (r.confirmed_at ? formatDateTime(r.confirmed_at, language) : ''),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      actions: true,
      cell: (r) => (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => act(r, 'approve')} aria-label={t('endusers.approve_who', { name: r.email })}>
            {t('endusers.approve')}
          </Button>
          <Button
            variant="secondary"
            onClick={() => act(r, 'refuse')}
            aria-label={t('endusers.refuse_who', { name: r.email })}
          >
            {t('endusers.refuse')}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('endusers.registrations_title')}
        description={t('endusers.registrations_description')}
      />
      <div className="space-y-6">
        <Card title={t('endusers.pending')}>
          <QueryBoundary query={registrations}>
            {(data) => (
              <DataTable
                phoneCards
                caption={t('endusers.pending')}
                columns={columns}
                rows={data.items}
                rowKey={(r) => r.id}
                empty={t('endusers.no_pending')}
              />
            )}
          </QueryBoundary>
        </Card>
        <ClaimCodeForm customerId={customerId} />
      </div>
    </>
  );
}
