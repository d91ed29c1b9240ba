import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';

type Overflow = { wider: boolean; atEnd: boolean };

/**
 * The box every table sits in. A table wider than its box (a phone, 390 px) scrolls inside it, never
 * the page, and says so: a visible "scroll sideways" hint, a shadow on the side with more columns,
 * and a named, focusable region that the keyboard's arrows scroll.
 */
export function TableScroll({
  label,
  children,
  className = '',
}: {
  /** What the table is, for the scroll region's name (its caption). */
  label: string;
  children: ReactNode;
  /** The frame's look (border, background). */
  className?: string;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const box = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>({ wider: false, atEnd: true });

  // Measured when the browser lays the page out anyway: the observer, made before the first paint,
  // first calls after that layout and before the paint, and the hint it may add is drawn in the
  // same frame (flushSync), so nothing moves. Measuring in the layout effect itself forced a layout
  // of the whole page inside the render (150 ms of the dashboard's first task at 4x; issue 16).
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const measure = () => {
      const wider = element.scrollWidth > element.clientWidth + 1;
      const atEnd = element.scrollLeft + element.clientWidth >= element.scrollWidth - 1;
      flushSync(() =>
        setOverflow((previous) =>
          previous.wider === wider && previous.atEnd === atEnd ? previous : { wider, atEnd },
        ),
      );
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, []);

  return (
    <div data-table-scroll="" className="min-w-0">
      {overflow.wider && (
        <p
          id={hintId}
          data-scroll-hint=""
          className="mb-1 flex items-center gap-1 text-xs text-slate-600 dark:text-slate-400"
        >
          <svg
            viewBox="0 0 24 24"
            className="h-4 w-4"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M8 7l-5 5 5 5M16 7l5 5-5 5M3 12h18" />
          </svg>
          {t('table.scroll_hint')}
        </p>
      )}
      <div className={`relative ${className}`}>
        <div
          ref={box}
          className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-sky-600"
          {...(overflow.wider
            ? { role: 'region', 'aria-label': label, 'aria-describedby': hintId, tabIndex: 0 }
            : {})}
        >
          {children}
        </div>
        {overflow.wider && !overflow.atEnd && (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 right-0 w-8 rounded-r-xl bg-gradient-to-l from-slate-900/20 to-transparent dark:from-black/50"
          />
        )}
      </div>
    </div>
  );
}
