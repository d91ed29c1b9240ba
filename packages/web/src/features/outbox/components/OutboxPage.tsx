import type { OutboxEmail } from '@flowbox/shared';
import { Fragment, useState } from 'react';
import { Button } from '../../../components/Button.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useOutbox } from '../api/list-outbox.ts';

/** Each kind of email the server sends, named in the UI's language; a kind added later shows as it is stored. */
const KIND_LABELS = {
  invitation: 'outbox.kind_invitation',
  reset_password: 'outbox.kind_reset_password',
  registration_exists: 'outbox.kind_registration_exists',
  registration_confirm: 'outbox.kind_registration_confirm',
  registration_approved: 'outbox.kind_registration_approved',
  registration_refused: 'outbox.kind_registration_refused',
  alert: 'outbox.kind_alert',
} as const;

const isKnownKind = (kind: string): kind is keyof typeof KIND_LABELS => kind in KIND_LABELS;

const URL_PATTERN = /(https?:\/\/[^\s<>"]+)/g;

/** The email's text with its links clickable (invitation and reset links). */
function EmailText({ text }: { text: string }) {
  return (
    <p className="text-sm break-words whitespace-pre-wrap">
      {text.split(URL_PATTERN).map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="text-sky-700 underline dark:text-sky-400">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </p>
  );
}

/** Its status and, once a relay was tried, how many tries, when the next one comes, and why. */
function DeliveryStatus({ email }: { email: OutboxEmail }) {
  const { t, language } = useLanguage();
  const tried = email.attempts > 0 && email.status !== 'sent';
  return (
    <>
      {t(`outbox.status_${email.status}`)}
      {tried && (
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          {t('outbox.tries', { count: email.attempts })}
          {email.next_attempt_at && (
            <>, {t('outbox.next_try', { date: formatDateTime(email.next_attempt_at, language) })}</>
          )}
        </span>
      )}
      {tried && email.error && (
        <span className="block text-xs break-words text-slate-600 dark:text-slate-400">
          {t('outbox.relay_answer', { error: email.error })}
        </span>
      )}
    </>
  );
}

export function OutboxPage() {
  const { t, language } = useLanguage();
  const outbox = useOutbox();
  const [open, setOpen] = useState<OutboxEmail | null>(null);
  // The subject first: the row's name, on screen at 390 px before the table scrolls (issue 30).
  const columns: Column<OutboxEmail>[] = [
    { key: 'subject', header: t('outbox.subject'), rowHeader: true, cell: (e) => e.subject },
    { key: 'date', header: t('outbox.date'), cell: (e) => formatDateTime(e.created_at, language) },
    {
      key: 'to',
      header: t('outbox.to'),
      cell: (e) => <span className="break-all md:break-normal md:whitespace-nowrap">{e.to}</span>,
    },
    {
      key: 'kind',
      header: t('outbox.kind'),
      hideOnMobile: true,
      cell: (e) => (isKnownKind(e.kind) ? t(KIND_LABELS[e.kind]) : e.kind),
    },
    {
      key: 'status',
      header: t('outbox.status'),
      hideOnMobile: true,
      cell: (e) => <DeliveryStatus email={e} />,
    },
    {
      key: 'open',
      header: t('common.actions'),
      cell: (e) => (
        <Button
          variant="secondary"
          className="px-3 py-1"
          onClick={() => setOpen(e)}
          aria-label={`${t('outbox.read')}: ${e.subject}`}
        >
          {t('outbox.read')}
        </Button>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title={t('outbox.title')}
        description={t('outbox.description')}
        actions={
          <Button variant="secondary" onClick={() => void outbox.refetch()} loading={outbox.isFetching}>
            {t('outbox.refresh')}
          </Button>
        }
      />
      <QueryBoundary query={outbox}>
        {(data) => (
          <DataTable
            caption={t('outbox.title')}
            columns={columns}
            rows={data.items}
            rowKey={(e) => e.id}
            empty={t('outbox.empty')}
          />
        )}
      </QueryBoundary>
      <Dialog open={open !== null} onClose={() => setOpen(null)} title={open?.subject ?? ''}>
        {open && (
          <div className="space-y-3">
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {t('outbox.to')}: {open.to} · {formatDateTime(open.created_at, language)}
            </p>
            <EmailText text={open.text} />
            <div className="flex justify-end">
              <Button variant="secondary" onClick={() => setOpen(null)}>
                {t('common.close')}
              </Button>
            </div>
          </div>
        )}
      </Dialog>
    </>
  );
}
