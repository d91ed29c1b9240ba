import type { FlowboxCommand } from '@flowbox/shared';
import { DataTable } from '../../../components/DataTable.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { autotestOutcome } from '../format.ts';
import { CommandStatusBadge, RefusalText } from './CommandStatus.tsx';

/** The latest commands with their outcome, newest first; pushed outcomes update the rows in place. */
export function CommandsCard({ commands }: { commands: readonly FlowboxCommand[] }) {
  const { t, language } = useLanguage();
  return (
    <section aria-labelledby="flowbox-commands-title">
      <h2 id="flowbox-commands-title" className="mb-3 text-base font-semibold">
        {t('flowbox.section_commands')}
      </h2>
      <DataTable
        caption={t('commands.caption')}
        rows={commands}
        rowKey={(command) => command.id}
        empty={t('commands.none')}
        columns={[
          { key: 'name', header: t('commands.name'), rowHeader: true, cell: (c) => t(`commands.${c.name}`) },
          {
            key: 'issued_at',
            header: t('commands.issued_at'),
            hideOnMobile: true,
            cell: (c) => formatDateTime(c.issued_at, language),
          },
          { key: 'status', header: t('commands.status'), cell: (c) => <CommandStatusBadge command={c} /> },
          {
            key: 'outcome',
            header: t('commands.outcome'),
            hideOnMobile: true,
            cell: (c) => {
              const outcome = autotestOutcome(c);
              return outcome ? t(`autotest.result.${outcome.result}`) : <RefusalText command={c} />;
            },
          },
        ]}
      />
    </section>
  );
}
