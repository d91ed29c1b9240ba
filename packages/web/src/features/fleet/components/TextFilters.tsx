import { useEffect, useState } from 'react';
import { useLanguage } from '../../../lib/i18n/index.ts';

const INPUT =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-slate-700 dark:bg-slate-900';

/**
 * What a text filter's box shows: what is typed, until the address changes by another hand ("Clear
 * filters", a link): then the address's value. The box's own change coming back through the
 * address keeps what was typed meanwhile.
 */
function useAddressDraft(value: string): [string, (text: string) => void, (sent: string) => void] {
  const [draft, setDraft] = useState(value);
  const [known, setKnown] = useState(value);
  const [sent, setSent] = useState<string | null>(null);
  if (value !== known) {
    setKnown(value);
    setSent(null);
    if (value !== sent) setDraft(value);
  }
  return [draft, setDraft, setSent];
}

/** The serial search: the list follows once typing pauses. */
export function SerialSearch({ value, onSearch }: { value: string; onSearch: (text: string) => void }) {
  const { t } = useLanguage();
  const [text, setText, markSent] = useAddressDraft(value);
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === value) return undefined;
    const timer = window.setTimeout(() => {
      markSent(trimmed);
      onSearch(trimmed);
    }, 250);
    return () => window.clearTimeout(timer);
  }, [text, value, onSearch, markSent]);
  return (
    <label className="block text-sm font-medium sm:col-span-2">
      {t('fleet.search')}
      <input
        type="search"
        name="q"
        value={text}
        maxLength={64}
        autoComplete="off"
        onChange={(event) => setText(event.target.value)}
        className={`mt-1 ${INPUT}`}
      />
    </label>
  );
}

/** The firmware version, an exact match: applied on Enter or on leaving the box. */
export function FirmwareFilter({ value, onApply }: { value: string; onApply: (text: string) => void }) {
  const { t } = useLanguage();
  const [text, setText, markSent] = useAddressDraft(value);
  const apply = () => {
    const trimmed = text.trim();
    if (trimmed === value) return;
    markSent(trimmed);
    onApply(trimmed);
  };
  return (
    <label className="block text-sm font-medium">
      {t('fleet.filter.firmware')}
      <input
        type="text"
        name="firmware_version"
        value={text}
        maxLength={64}
        autoComplete="off"
        onChange={(event) => setText(event.target.value)}
        onBlur={apply}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply();
        }}
        className={`mt-1 ${INPUT}`}
      />
    </label>
  );
}
