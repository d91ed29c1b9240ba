import type { ClaimCode } from '@flowbox/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button.tsx';
import { ConfirmActionDialog } from '../../../components/ConfirmActionDialog.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useClaimCodes } from '../api/list-claim-codes.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';
import { useRevokeClaimCode } from '../api/revoke-claim-code.ts';

/**
 * A zone's claim codes (docs/permissions.md "Registration"): never the code itself, which is shown
 * once, but its last four characters, state, uses and expiry; an active one can be revoked, as a
 * manager does when a code went to the wrong hands.
 */
export function ClaimCodesList({ zone }: { zone: ZoneRef }) {
  const { t, language } = useLanguage();
  const codes = useClaimCodes(zone);
  const revoke = useRevokeClaimCode();
  const toast = useToast();
  const [revoking, setRevoking] = useState<ClaimCode | null>(null);

  const columns: Column<ClaimCode>[] = [
    {
      key: 'code',
      header: t('endusers.code'),
      rowHeader: true,
      cell: (c) => <span className="font-mono">{t('endusers.code_ending', { hint: c.hint })}</span>,
    },
    { key: 'state', header: t('endusers.code_state'), cell: (c) => t(`endusers.code_state.${c.state}`) },
    {
      key: 'uses',
      header: t('endusers.code_uses'),
      cell: (c) =>
        c.max_uses === null
          ? t('endusers.code_uses_unlimited', { uses: c.uses })
          : t('endusers.code_uses_of', { uses: c.uses, max: c.max_uses }),
    },
    {
      key: 'expires',
      header: t('endusers.code_expires'),
      cell: (c) => formatDateTime(c.expires_at, language),
    },
    {
      key: 'auto',
      header: t('endusers.code_auto'),
      cell: (c) => t(c.auto_approve ? 'endusers.code_auto_yes' : 'endusers.code_auto_no'),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      actions: true,
      cell: (c) =>
        c.state === 'active' ? (
          <Button
            variant="secondary"
            className="px-3 py-1"
            onClick={() => setRevoking(c)}
            aria-label={t('endusers.revoke_which', { hint: c.hint })}
          >
            {t('endusers.revoke')}
          </Button>
        ) : null,
    },
  ];

  return (
    <section className="mt-6" aria-labelledby="claim-codes-title">
      <h3 id="claim-codes-title" className="mb-3 text-base font-semibold">
        {t('endusers.codes_title')}
      </h3>
      <QueryBoundary query={codes}>
        {(data) => (
          <DataTable
            phoneCards
            caption={t('endusers.codes_title')}
            columns={columns}
            rows={data.items}
            rowKey={(c) => c.id}
            empty={t('endusers.codes_empty')}
          />
        )}
      </QueryBoundary>
      {revoking && (
        <ConfirmActionDialog
          open
          title={t('endusers.revoke_title')}
          text={t('endusers.revoke_text', { hint: revoking.hint })}
          confirmLabel={t('endusers.revoke')}
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await revoke.mutateAsync({ zone, codeId: revoking.id });
            toast.success(t('endusers.code_revoked'));
            setRevoking(null);
          }}
        />
      )}
    </section>
  );
}
