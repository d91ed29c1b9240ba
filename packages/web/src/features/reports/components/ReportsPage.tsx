import {
  addDays,
  LANGUAGES,
  REPORT_FORMATS,
  type Language,
  type Report,
  type ReportFormat,
  type ReportSchedule,
} from '@flowbox/shared';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Badge } from '../../../components/Badge.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { DateField } from '../../../components/DateField.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { PageHeader, type Crumb } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { Select } from '../../../components/Select.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDate, formatDateTime } from '../../../lib/dates.ts';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { ANY_ROLE, canDo, FLOVEA_OR_CUSTOMER, useUser } from '../../auth/index.ts';
import { useCustomer } from '../../customers/index.ts';
import { useSite, useSiteCrumbs } from '../../sites/index.ts';
import { useCreateReportSchedule } from '../api/create-report-schedule.ts';
import { useDeleteReportSchedule } from '../api/delete-report-schedule.ts';
import { useDownloadReport } from '../api/download-report.ts';
import { useGenerateReport } from '../api/generate-report.ts';
import { useReportRecipients } from '../api/list-report-recipients.ts';
import { useReportSchedules } from '../api/list-report-schedules.ts';
import { useReports } from '../api/list-reports.ts';
import type { ReportsScope } from '../api/reports-scope.ts';
import { useUpdateReportSchedule } from '../api/update-report-schedule.ts';
import { ReportScheduleForm } from './ReportScheduleForm.tsx';

/** The days of the last whole month, the period a report is most often asked for. */
function lastMonth(): { from: string; to: string } {
  const today = new Date().toISOString().slice(0, 10);
  const first = `${today.slice(0, 8)}01`;
  const to = addDays(first, -1);
  return { from: `${to.slice(0, 8)}01`, to };
}

/** "Generate now": chosen days, language and formats; the button shows the request's progress. */
function GenerateNow({ scope }: { scope: ReportsScope }) {
  const { t, language } = useLanguage();
  const toast = useToast();
  const generate = useGenerateReport(scope);
  const [period, setPeriod] = useState(lastMonth);
  const [reportLanguage, setReportLanguage] = useState<Language>(language);
  const [formats, setFormats] = useState<ReportFormat[]>(['pdf', 'csv']);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    try {
      await generate.mutateAsync({ ...period, language: reportLanguage, formats });
      toast.success(t('reports.generated'));
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };
  return (
    <Card title={t('reports.generate_title')}>
      <form onSubmit={submit} noValidate className="space-y-4">
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <div className="grid gap-4 sm:grid-cols-3">
          <DateField
            label={t('reports.from')}
            name="from"
            required
            value={period.from}
            onChange={(from) => setPeriod({ ...period, from })}
          />
          <DateField
            label={t('reports.to')}
            name="to"
            required
            value={period.to}
            onChange={(to) => setPeriod({ ...period, to })}
          />
          <Select
            label={t('reports.language')}
            name="language"
            value={reportLanguage}
            onChange={(e) => setReportLanguage(e.target.value as Language)}
            options={LANGUAGES.map((value) => ({ value, label: t(`reports.language.${value}`) }))}
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium">{t('reports.formats')}</legend>
          <div className="mt-2 flex gap-4">
            {REPORT_FORMATS.map((format) => (
              <Checkbox
                key={format}
                name="formats"
                label={format.toUpperCase()}
                checked={formats.includes(format)}
                onChange={(e) =>
                  setFormats(
                    e.target.checked ? [...formats, format] : formats.filter((other) => other !== format),
                  )
                }
              />
            ))}
          </div>
        </fieldset>
        <p className="text-xs text-slate-600 dark:text-slate-400">{t('reports.generate_hint')}</p>
        <div role="status" aria-live="polite" className="flex items-center gap-3">
          <Button type="submit" loading={generate.isPending}>
            {t('reports.generate')}
          </Button>
          {generate.isPending && <span className="text-sm">{t('reports.generating')}</span>}
        </div>
      </form>
    </Card>
  );
}

function SchedulesCard({ scope, manages }: { scope: ReportsScope; manages: boolean }) {
  const { t, language } = useLanguage();
  const toast = useToast();
  const schedules = useReportSchedules(scope);
  const recipients = useReportRecipients(scope);
  const create = useCreateReportSchedule(scope);
  const update = useUpdateReportSchedule(scope);
  const remove = useDeleteReportSchedule(scope);
  const [editing, setEditing] = useState<ReportSchedule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReportSchedule | null>(null);
  const columns: Column<ReportSchedule>[] = [
    { key: 'name', header: t('reports.name'), rowHeader: true, cell: (s) => s.name },
    {
      key: 'frequency',
      header: t('reports.frequency'),
      cell: (s) => (
        <span className="flex flex-wrap gap-1">
          {t(`reports.frequency.${s.frequency}`)}
          {!s.enabled && <Badge>{t('reports.paused')}</Badge>}
        </span>
      ),
    },
    {
      key: 'formats',
      header: t('reports.formats'),
      cell: (s) => s.formats.map((f) => f.toUpperCase()).join(', '),
    },
    {
      key: 'recipients',
      header: t('reports.recipients'),
      hideOnMobile: true,
      cell: (s) => s.recipients.map((r) => r.name).join(', ') || '—',
    },
    {
      key: 'next',
      header: t('reports.next_due'),
      cell: (s) => (s.enabled ? formatDateTime(s.next_due_at, language) : '—'),
    },
    ...(manages
      ? [
          {
            key: 'actions',
            header: t('common.actions'),
            actions: true,
            cell: (s: ReportSchedule) => (
              <span className="flex gap-2">
                <Button variant="secondary" onClick={() => setEditing(s)}>
                  {t('common.edit')}
                </Button>
                <Button variant="danger" onClick={() => setDeleting(s)}>
                  {t('common.delete')}
                </Button>
              </span>
            ),
          },
        ]
      : []),
  ];
  return (
    <Card
      title={t('reports.schedules')}
      actions={manages && <Button onClick={() => setEditing('new')}>{t('reports.add')}</Button>}
    >
      <QueryBoundary query={schedules}>
        {({ items }) => (
          <DataTable
            caption={t('reports.schedules')}
            columns={columns}
            rows={items}
            rowKey={(s) => s.id}
            empty={t('reports.schedules_empty')}
            phoneCards
          />
        )}
      </QueryBoundary>
      <Dialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('reports.add_title') : t('reports.edit_title')}
        wide
      >
        {editing !== null && (
          <ReportScheduleForm
            schedule={editing === 'new' ? undefined : editing}
            recipients={recipients.data?.items ?? []}
            onCancel={() => setEditing(null)}
            onSave={async (input) => {
              if (editing === 'new') await create.mutateAsync(input);
              else await update.mutateAsync({ id: editing.id, input });
              toast.success(t(editing === 'new' ? 'reports.created' : 'reports.updated'));
              setEditing(null);
            }}
          />
        )}
      </Dialog>
      <ConfirmDeleteDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        name={deleting?.name ?? ''}
        consequence={t('reports.delete_consequence')}
        onConfirm={async (confirmName) => {
          await remove.mutateAsync({ id: deleting!.id, confirmName });
          setDeleting(null);
          toast.success(t('reports.deleted'));
        }}
      />
    </Card>
  );
}

function ReportsCard({ scope }: { scope: ReportsScope }) {
  const { t, language } = useLanguage();
  const toast = useToast();
  const reports = useReports(scope);
  const download = useDownloadReport(scope);
  const save = async (report: Report, format: ReportFormat) => {
    try {
      await download.mutateAsync({ report, format });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const columns: Column<Report>[] = [
    {
      key: 'period',
      header: t('reports.period'),
      rowHeader: true,
      cell: (r) => `${formatDate(r.period_from, language)} – ${formatDate(r.period_to, language)}`,
    },
    {
      key: 'schedule',
      header: t('reports.schedule'),
      cell: (r) => r.schedule_name ?? t('reports.on_demand'),
    },
    {
      key: 'made',
      header: t('reports.made'),
      hideOnMobile: true,
      cell: (r) => `${formatDateTime(r.created_at, language)}${r.created_by ? ` (${r.created_by})` : ''}`,
    },
    {
      key: 'files',
      header: t('reports.files'),
      actions: true,
      cell: (r) => (
        <span className="flex gap-2">
          {r.formats.map((format) => (
            <Button
              key={format}
              variant="secondary"
              aria-label={t('reports.download', {
                format: format.toUpperCase(),
                period: `${formatDate(r.period_from, language)} – ${formatDate(r.period_to, language)}`,
              })}
              onClick={() => save(r, format)}
            >
              {format.toUpperCase()}
            </Button>
          ))}
        </span>
      ),
    },
  ];
  return (
    <Card title={t('reports.list')}>
      <QueryBoundary query={reports}>
        {({ items }) => (
          <DataTable
            caption={t('reports.list')}
            columns={columns}
            rows={items}
            rowKey={(r) => r.id}
            empty={t('reports.list_empty')}
            phoneCards
          />
        )}
      </QueryBoundary>
    </Card>
  );
}

/**
 * A Reports screen (docs/reports.md): the scope's schedules, the reports kept with their files, and
 * "generate now". Managing takes the export permission, as the server checks.
 */
function ReportsScreen({ scope, breadcrumbs }: { scope: ReportsScope; breadcrumbs: Crumb[] }) {
  const { t } = useLanguage();
  const user = useUser();
  const manages = canDo(user, scope.siteId === null ? FLOVEA_OR_CUSTOMER : ANY_ROLE, 'consumption.export');
  return (
    <>
      <PageHeader
        title={t('reports.title')}
        description={t('reports.description')}
        breadcrumbs={breadcrumbs}
      />
      <div className="space-y-6">
        <SchedulesCard scope={scope} manages={manages} />
        {manages && <GenerateNow scope={scope} />}
        <ReportsCard scope={scope} />
      </div>
    </>
  );
}

/** A customer's reports, over all its sites: its customer managers' and the provider's. */
export function CustomerReportsPage() {
  const customerId = useRequiredParam('customerId');
  const { t } = useLanguage();
  const customer = useCustomer(customerId);
  return (
    <ReportsScreen
      scope={{ customerId, siteId: null }}
      breadcrumbs={[
        { label: customer.data?.name ?? t('customers.overview'), to: paths.customer.getHref(customerId) },
      ]}
    />
  );
}

/** A site's reports: also its site managers'. */
export function SiteReportsPage() {
  const customerId = useRequiredParam('customerId');
  const siteId = useRequiredParam('siteId');
  const site = useSite(customerId, siteId);
  const crumbs: Crumb[] = [
    ...useSiteCrumbs(customerId),
    { label: site.data?.name ?? '…', to: paths.site.getHref(customerId, siteId) },
  ];
  return <ReportsScreen scope={{ customerId, siteId }} breadcrumbs={crumbs} />;
}
