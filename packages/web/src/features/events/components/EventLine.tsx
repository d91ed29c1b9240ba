import type { ActivityEvent } from '@flowbox/shared';
import type { TFunction } from 'i18next';
import { Fragment } from 'react';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { fieldLabel } from '../field-label.ts';
import { firmwareDetail } from '../firmware-detail.ts';

/** Who did it: the user's name as recorded, or the system or device that acted alone. */
function authorOf(event: ActivityEvent, t: TFunction): string {
  if (event.user_name) return event.user_name;
  return t(`event.author.${event.origin}`);
}

/*
 * The author is set in bold wherever the language puts it in the sentence. Names are user text, so
 * the sentence is split on a marker rather than parsed as markup (a name may contain "<").
 */
const AUTHOR_MARK = '\u0000';

function Sentence({ template, author, language }: { template: string; author: string; language: string }) {
  // A sentence that opens on its object ("le déploiement … est terminé") starts with a capital.
  const opened = template.startsWith(AUTHOR_MARK)
    ? template
    : template.charAt(0).toLocaleUpperCase(language) + template.slice(1);
  const parts = opened.split(AUTHOR_MARK);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <strong className="font-semibold">{author}</strong>}
      {part}
    </Fragment>
  ));
}

/**
 * Some events carry in their first changed field what the line is about rather than a change: an
 * alert's category (docs/alerts.md) and a monitored flowbox's new status (spec §4 monitoring). The
 * sentence says it; the other fields are listed as changes.
 */
function toldInSentence(event: ActivityEvent, t: TFunction) {
  const [first = '', ...others] = event.changed_fields;
  if (event.object_name === 'alert')
    return { category: t(`event.alert_category.${first}`, { defaultValue: first }), changed: others };
  if (event.action_name.endsWith('_status_changed')) return { status: fieldLabel(first, t), changed: others };
  return { changed: event.changed_fields };
}

/** The object as the sentence names it; an alert category's label is its key, named in the language. */
function objectLabel(event: ActivityEvent, t: TFunction): string {
  return event.object_name === 'alert_category'
    ? t(`event.alert_category.${event.object_label}`, { defaultValue: event.object_label })
    : event.object_label;
}

const ORIGIN_TONE = {
  web: 'bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-200',
  device: 'bg-violet-100 text-violet-800 dark:bg-violet-900/50 dark:text-violet-200',
  system: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
} as const;

/** One line of the log: "Claire Customer created the site “Lyon”", its time, origin and changed fields. */
export function EventLine({ event }: { event: ActivityEvent }) {
  const { t, language } = useLanguage();
  const { category, status, changed } = toldInSentence(event, t);
  const label = objectLabel(event, t);
  const what = t(`event.object.${event.object_name}`, { label, category });
  const noun = t(`event.noun.${event.object_name}`);
  // A firmware line says what happened in a sentence of its own instead of a list of fields.
  const detail = firmwareDetail(event, t, language);
  return (
    <li className="px-4 py-3 sm:px-5" data-testid="event-line">
      <p className="text-sm break-words text-slate-900 dark:text-slate-100">
        <Sentence
          template={t(`event.action.${event.action_name}`, {
            who: AUTHOR_MARK,
            what,
            noun,
            label,
            status,
          })}
          author={authorOf(event, t)}
          language={language}
        />
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
        <time dateTime={event.created_at}>{formatDateTime(event.created_at, language)}</time>
        <span className={`inline-flex rounded-full px-2 py-0.5 font-medium ${ORIGIN_TONE[event.origin]}`}>
          {t(`event.origin.${event.origin}`)}
        </span>
        {detail !== null && <span>{detail}</span>}
        {detail === null && changed.length > 0 && (
          <span>
            {t('events.changed_fields')} {changed.map((field) => fieldLabel(field, t)).join(', ')}
          </span>
        )}
      </div>
    </li>
  );
}
