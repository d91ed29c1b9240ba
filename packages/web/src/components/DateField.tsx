import { isBackendDate, type Language } from '@flowbox/shared';
import { useRef, useState, type Ref } from 'react';
import type { FieldError as HookFieldError } from 'react-hook-form';
import { readDateInput, toDateInput } from '../lib/dates.ts';
import { useLanguage } from '../lib/i18n/index.ts';
import { buttonClass } from './Button.tsx';
import { TextField } from './TextField.tsx';

type DateFieldProps = {
  label: string;
  name: string;
  /** A backend date (yyyy-MM-dd); empty for none; or text this field could not read. */
  value: string | null | undefined;
  /**
   * Receives the backend date, '' once emptied, or the typed text while it names no date, so a
   * form's schema refuses it while this field says why.
   */
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: HookFieldError;
  required?: boolean;
  disabled?: boolean;
  className?: string;
  ref?: Ref<HTMLInputElement>;
};

/** What the box shows for a value: the date in the language's format, or the unread text as it was typed. */
const shownText = (value: string, language: Language) =>
  isBackendDate(value) ? toDateInput(value, language) : value;

/** What the box's text sends: the date it names, '' for none, else the text itself. */
function valueOf(text: string, language: Language): string {
  const reading = readDateInput(text, language);
  return 'date' in reading ? (reading.date ?? '') : text;
}

const PICKER_SUPPORTED =
  typeof HTMLInputElement !== 'undefined' && 'showPicker' in HTMLInputElement.prototype;

/**
 * A date typed as spec §3 shows it (MM/dd/yyyy in English, dd/MM/yyyy in French) whatever the
 * browser's locale, unlike <input type="date">; the form still gets yyyy-MM-dd. A button beside it
 * opens the browser's calendar for those who would rather pick.
 */
export function DateField({
  label,
  name,
  value,
  onChange,
  onBlur,
  error,
  required,
  disabled,
  className,
  ref,
}: DateFieldProps) {
  const { t, language } = useLanguage();
  const picker = useRef<HTMLInputElement>(null);
  const current = value ?? '';
  const [text, setText] = useState(() => shownText(current, language));
  // Problems show once the user has left the box, not at each keystroke.
  const [left, setLeft] = useState(false);
  const [synced, setSynced] = useState({ value: current, language });
  if (synced.value !== current || synced.language !== language) {
    // A value set from outside (a reset, the calendar) or a language switch: show it anew.
    setSynced({ value: current, language });
    if (valueOf(text, language) !== current) setText(shownText(current, language));
  }

  const reading = readDateInput(text, language);
  const problem = 'problem' in reading && (left || error) ? reading.problem : undefined;

  function type(next: string) {
    setText(next);
    onChange(valueOf(next, language));
  }

  return (
    <TextField
      label={label}
      name={name}
      ref={ref}
      value={text}
      required={required}
      disabled={disabled}
      className={className}
      inputMode="numeric"
      autoComplete="off"
      hint={t('date_field.format_hint')}
      error={problem ? { type: 'date', message: problem } : error}
      onChange={(event) => type(event.target.value)}
      onBlur={() => {
        setLeft(true);
        // "1/2/2026" reads as a date: write it out in full.
        if ('date' in reading && reading.date) setText(toDateInput(reading.date, language));
        onBlur?.();
      }}
      addon={
        PICKER_SUPPORTED && (
          <span className="relative shrink-0">
            <input
              ref={picker}
              type="date"
              tabIndex={-1}
              aria-hidden="true"
              className="sr-only"
              value={isBackendDate(current) ? current : ''}
              onChange={(event) => type(toDateInput(event.target.value, language))}
            />
            <button
              type="button"
              disabled={disabled}
              aria-label={t('date_field.calendar')}
              title={t('date_field.calendar')}
              className={buttonClass('secondary', 'h-full px-3')}
              onClick={() => picker.current?.showPicker()}
            >
              <svg
                viewBox="0 0 24 24"
                className="h-5 w-5"
                aria-hidden="true"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <rect x="3" y="5" width="18" height="16" rx="2" />
                <path d="M3 10h18M8 3v4M16 3v4" />
              </svg>
            </button>
          </span>
        )
      }
    />
  );
}
