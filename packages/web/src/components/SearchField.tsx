import { useEffect, useState } from 'react';
import { INPUT_CLASS } from './TextField.tsx';

const DEBOUNCE_MS = 250;

/** A search box that reports its text once typing pauses. */
export function SearchField({ label, onSearch }: { label: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState('');
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
        placeholder={label}
        value={text}
        onChange={(event) => setText(event.target.value)}
        className={INPUT_CLASS}
      />
    </div>
  );
}
