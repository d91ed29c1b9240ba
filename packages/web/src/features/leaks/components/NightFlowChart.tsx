import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { escapeHtml, useDarkScheme, useEChart } from '../../../components/charts/use-echart.ts';

// Bars for each night's minimum, a line for the occupants' allowance.
echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

const PALETTE = {
  light: {
    within: '#0369a1',
    above: '#d97706',
    allowance: '#0f172a',
    text: '#475569',
    grid: '#e2e8f0',
    tooltip: '#ffffff',
  },
  dark: {
    within: '#38bdf8',
    above: '#fbbf24',
    allowance: '#f8fafc',
    text: '#cbd5e1',
    grid: '#1e293b',
    tooltip: '#0f172a',
  },
};

export type NightFlowChartProps = {
  categories: string[];
  /** Each night's minimum night flow, L/h. */
  nights: number[];
  allowance: number;
  names: { nights: string; allowance: string };
  tooltips: string[][];
  formatValue: (value: number) => string;
  height: number;
};

/**
 * Minimum night flow per night against the allowance (docs/automation.md "Leak analytics"): a night
 * above it in amber. Hidden from screen readers: the same figures are in the table beside it.
 */
export function NightFlowChart(props: NightFlowChartProps) {
  const { categories, nights, allowance, names, tooltips, formatValue, height } = props;
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
      name: 'L/h',
      nameTextStyle: { color: colors.text, align: 'right' },
      axisLabel: { color: colors.text, formatter: formatValue },
      splitLine: { lineStyle: { color: colors.grid } },
    },
    series: [
      {
        type: 'bar',
        name: names.nights,
        data: nights.map((value) => ({
          value,
          itemStyle: { color: value > allowance ? colors.above : colors.within, borderRadius: [4, 4, 0, 0] },
        })),
        itemStyle: { color: colors.within },
        barMaxWidth: 24,
      },
      {
        type: 'line',
        name: names.allowance,
        data: nights.map(() => allowance),
        symbol: 'none',
        lineStyle: { color: colors.allowance, width: 2, type: 'dashed' },
        itemStyle: { color: colors.allowance },
      },
    ],
  };
  const box = useEChart(option, JSON.stringify([categories, nights, allowance, colors, height]));
  return (
    <div ref={box} aria-hidden="true" style={{ height }} className="w-full" data-testid="night-flow-chart" />
  );
}
