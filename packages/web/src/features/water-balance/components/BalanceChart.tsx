import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { escapeHtml, useDarkScheme, useEChart } from '../../../components/charts/use-echart.ts';

// Bars for the zones and the unaccounted water stacked on them, a line for the main supply.
echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

const PALETTE = {
  light: {
    zones: '#0369a1',
    unaccounted: '#d97706',
    incomplete: '#cbd5e1',
    main: '#0f172a',
    text: '#475569',
    grid: '#e2e8f0',
    tooltip: '#ffffff',
  },
  dark: {
    zones: '#38bdf8',
    unaccounted: '#fbbf24',
    incomplete: '#475569',
    main: '#f8fafc',
    text: '#cbd5e1',
    grid: '#1e293b',
    tooltip: '#0f172a',
  },
};

export type BalanceChartProps = {
  categories: string[];
  main: number[];
  zones: number[];
  /** Per bucket: the unaccounted litres shown above the zones (0 when none or not counted). */
  unaccounted: number[];
  /** Buckets where a meter was missing: their zones' bar is greyed, nothing unaccounted is drawn. */
  incomplete: boolean[];
  names: { main: string; zones: string; unaccounted: string };
  tooltips: string[][];
  formatValue: (value: number) => string;
  height: number;
};

/**
 * Main supply against the sum of the zones, the unaccounted water highlighted. Hidden from screen
 * readers: the same figures are in the table beside it.
 */
export function BalanceChart(props: BalanceChartProps) {
  const { categories, main, zones, unaccounted, incomplete, names, tooltips, formatValue, height } = props;
  const colors = PALETTE[useDarkScheme() ? 'dark' : 'light'];
  const option: EChartsCoreOption = {
    backgroundColor: 'transparent',
    animationDuration: 300,
    textStyle: { fontFamily: 'Inter, ui-sans-serif, system-ui, sans-serif' },
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    legend: { top: 0, right: 0, textStyle: { color: colors.text }, itemWidth: 12, itemHeight: 12 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      backgroundColor: colors.tooltip,
      borderColor: colors.grid,
      textStyle: { color: colors.text },
      formatter: (params: { dataIndex: number }[]) =>
        (tooltips[params[0]?.dataIndex ?? 0] ?? [])
          .map((line, i) => (i === 0 ? `<strong>${escapeHtml(line)}</strong>` : escapeHtml(line)))
          .join('<br>'),
    },
    xAxis: {
      type: 'category',
      data: categories,
      axisLabel: { color: colors.text, hideOverlap: true },
      axisLine: { lineStyle: { color: colors.grid } },
      axisTick: { show: false },
    },
    yAxis: {
      type: 'value',
      name: 'L',
      nameTextStyle: { color: colors.text, align: 'right' },
      axisLabel: { color: colors.text, formatter: formatValue },
      splitLine: { lineStyle: { color: colors.grid } },
    },
    series: [
      {
        type: 'bar',
        name: names.zones,
        stack: 'balance',
        data: zones.map((value, i) => ({
          value,
          itemStyle: { color: incomplete[i] ? colors.incomplete : colors.zones },
        })),
        itemStyle: { color: colors.zones },
        barMaxWidth: 32,
      },
      {
        type: 'bar',
        name: names.unaccounted,
        stack: 'balance',
        data: unaccounted,
        itemStyle: { color: colors.unaccounted, borderRadius: [4, 4, 0, 0] },
        barMaxWidth: 32,
      },
      {
        type: 'line',
        name: names.main,
        data: main,
        symbol: 'circle',
        symbolSize: 6,
        lineStyle: { color: colors.main, width: 2 },
        itemStyle: { color: colors.main },
      },
    ],
  };
  const box = useEChart(
    option,
    JSON.stringify([categories, main, zones, unaccounted, incomplete, colors, height]),
  );
  return <div ref={box} aria-hidden="true" style={{ height }} className="w-full" />;
}
