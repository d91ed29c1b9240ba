import * as echarts from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef, useSyncExternalStore } from 'react';

/*
 * What every graph shares. Import it only from modules loaded with React.lazy: ECharts then comes
 * with the first graph shown, and pages without graphs do not pay for it. Each graph registers the
 * chart types it draws (`echarts.use`) in its own module.
 */

const DARK = '(prefers-color-scheme: dark)';

/** The app's colour scheme follows the system's (Tailwind `dark:`); the graphs follow it too, live. */
export function useDarkScheme(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(DARK);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(DARK).matches,
  );
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One ECharts instance on a div, resized with its box and disposed with the component. The option
 * is applied only when `key` (the figures, labels and scheme) changes, so a re-render of the page
 * (a refetch starting) does not replay the animation.
 */
export function useEChart(option: EChartsCoreOption, key: string) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const latest = useRef(option);
  useEffect(() => {
    latest.current = option;
  }, [option]);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const instance = echarts.init(element, null, { renderer: 'svg' });
    chart.current = instance;
    instance.setOption(latest.current);
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(latest.current, { notMerge: true });
  }, [key]);
  return box;
}
