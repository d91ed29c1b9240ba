import { useEffect, useId, useState } from 'react';
import { INPUT_CLASS } from './TextField.tsx';

const DEBOUNCE_MS = 250;

/**
 * A search box that reports its text once typing pauses. Its label is its placeholder, so it stays
 * short enough for a phone; what it searches, when that takes more words, is the hint under it.
 */
export function SearchField({
  label,
  hint,
  onSearch,
}: {
  label: string;
  hint?: string;
  onSearch: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const hintId = useId();
  useEffect(() => {
    const timer = window.setTimeout(() => onSearch(text.trim()), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <div className="mb-4 max-w-sm">
      <input
        type="search"
        name="search"
        aria-label={label}
        aria-describedby={hint ? hintId : undefined}
        placeholder={label}
        value={text}
        onChange={(event) => setText(event.target.value)}
        className={INPUT_CLASS}
      />
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
    </div>
  );
}
