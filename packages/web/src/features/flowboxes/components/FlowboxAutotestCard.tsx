import { FINAL_COMMAND_STATUSES, type FlowboxCommand } from '@flowbox/shared';
import { useState } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { errorMessage } from '../../../lib/forms.ts';
import { isTranslationKey, useLanguage } from '../../../lib/i18n/index.ts';
import { Badge } from '../../../components/Badge.tsx';
import type { FlowboxRef } from '../api/get-flowbox.ts';
import { useSendCommand } from '../api/send-command.ts';
import { autotestOutcome, type AutotestOutcome } from '../format.ts';
import { CommandStatusBadge, RefusalText } from './CommandStatus.tsx';

const RESULT_TONE: Record<AutotestOutcome['result'], 'neutral' | 'good' | 'warn'> = {
  none: 'neutral',
  all_succeeded: 'good',
  some_skipped: 'good',
  failed: 'warn',
};

type FlowboxAutotestCardProps = {
  flowboxRef: FlowboxRef;
  /** The latest autotest command, if any among the recent commands. */
  latest: FlowboxCommand | undefined;
  /** Why the autotest cannot be run (permission, pairing), or null. */
  disabledReason: string | null;
};

/**
 * A check's name in words: the device names its checks (docs/protocol.md `autotest_result`), the
 * known ones are translated, a new one is still readable ("pressure_sensor": "Pressure sensor").
 */
function useCheckName(): (name: string) => string {
  const { t } = useLanguage();
  return (name) => {
    const key = `autotest.check_name.${name}`;
    if (isTranslationKey(key)) return t(key);
    const words = name.replaceAll('_', ' ').trim();
    return words.charAt(0).toUpperCase() + words.slice(1);
  };
}

/** spec §2 "flowbox autotest": run one and read its result (spec §4 autotest results) and checks. */
export function FlowboxAutotestCard({ flowboxRef, latest, disabledReason }: FlowboxAutotestCardProps) {
  const { t, language } = useLanguage();
  const send = useSendCommand(flowboxRef);
  const [failure, setFailure] = useState<string | null>(null);
  const running = latest !== undefined && !FINAL_COMMAND_STATUSES.includes(latest.status);
  const outcome = latest && autotestOutcome(latest);
  const checkName = useCheckName();

  async function run() {
    setFailure(null);
    try {
      await send.mutateAsync({ name: 'autotest' });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  return (
    <Card
      title={t('flowbox.section_autotest')}
      actions={
        <Button
          variant="secondary"
          disabled={disabledReason !== null || running}
          loading={send.isPending || running}
          onClick={() => void run()}
        >
          {t('commands.autotest')}
        </Button>
      }
    >
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('autotest.intro')}</p>
      {disabledReason && <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{disabledReason}</p>}
      {failure && (
        <div className="mt-3">
          <Alert title={t('dialog.error')}>{failure}</Alert>
        </div>
      )}
      <div role="status" className="mt-4 text-sm" data-testid="autotest-result">
        {!latest ? (
          <p>{t('autotest.never')}</p>
        ) : running ? (
          <p className="flex flex-wrap items-center gap-2">
            {t('autotest.running')} <CommandStatusBadge command={latest} />
          </p>
        ) : outcome ? (
          <>
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{t('autotest.latest')}</span>
              <span data-result={outcome.result}>
                <Badge tone={RESULT_TONE[outcome.result]}>{t(`autotest.result.${outcome.result}`)}</Badge>
              </span>
              <span className="text-xs text-slate-500 dark:text-slate-400">
                {t('autotest.ran_at', {
                  date: formatDateTime(latest.completed_at ?? latest.issued_at, language),
                })}
              </span>
            </p>
            {outcome.checks.length > 0 && (
              <>
                <h3 className="mt-3 text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
                  {t('autotest.checks')}
                </h3>
                <ul className="mt-1 space-y-1">
                  {outcome.checks.map((check) => (
                    <li key={check.name} className="flex justify-between gap-4" data-check={check.name}>
                      <span>{checkName(check.name)}</span>
                      <span>{t(`autotest.check.${check.result}`)}</span>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        ) : (
          <p className="flex flex-wrap items-center gap-2">
            {t('autotest.no_result', { status: t(`commands.status.${latest.status}`) })}
            <RefusalText command={latest} />
          </p>
        )}
      </div>
    </Card>
  );
}
