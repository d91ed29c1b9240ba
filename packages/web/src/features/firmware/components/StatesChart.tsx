import { LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { escapeHtml, useDarkScheme, useEChart } from '../../../components/charts/use-echart.ts';
import { STATE_GROUPS, type StateGroup } from '../format.ts';
import type { StateSample } from '../timeline.ts';
import { GROUP_COLOURS } from './group-colours.ts';

// Stacked areas of the devices per state group, over time, drawn as SVG.
echarts.use([LineChart, GridComponent, TooltipComponent, SVGRenderer]);

export type StatesChartProps = {
  samples: readonly StateSample[];
  groupLabels: Record<StateGroup, string>;
  formatTime: (at: number) => string;
  height: number;
};

/**
 * A rollout's devices per state group over time, stacked, so the waiting band shrinks as the
 * updated one grows. Hidden from screen readers: the counts are in words beside it.
 */
export function StatesChart({ samples, groupLabels, formatTime, height }: StatesChartProps) {
  const dark = useDarkScheme();
  const text = dark ? '#cbd5e1' : '#475569';
  const grid = dark ? '#1e293b' : '#e2e8f0';
  const option: EChartsCoreOption = {
    backgroundColor: 'transparent',
    animation: false,
    textStyle: { fontFamily: 'Inter, ui-sans-serif, system-ui, sans-serif' },
    grid: { left: 8, right: 16, top: 12, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      backgroundColor: dark ? '#0f172a' : '#ffffff',
      borderColor: grid,
      textStyle: { color: text },
      formatter: (params: { dataIndex: number }[]) => {
        const sample = samples[params[0]?.dataIndex ?? 0];
        if (!sample) return '';
        return [
          `<strong>${escapeHtml(formatTime(sample.at))}</strong>`,
          ...STATE_GROUPS.map((g) => escapeHtml(`${groupLabels[g]}: ${sample.counts[g]}`)),
        ].join('<br>');
      },
    },
    // A time axis: a quiet hour takes the room of an hour, a busy second that of a second.
    xAxis: {
      type: 'time',
      min: samples[0]?.at,
      max: samples.at(-1)?.at,
      // The first and last times sit at the chart's edges: aligned inwards, not cut off on a phone.
      axisLabel: {
        color: text,
        hideOverlap: true,
        alignMinLabel: 'left',
        alignMaxLabel: 'right',
        formatter: (at: number) => formatTime(at),
      },
      axisLine: { lineStyle: { color: grid } },
      axisTick: { show: false },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { color: text },
      splitLine: { lineStyle: { color: grid } },
    },
    series: STATE_GROUPS.map((group) => ({
      type: 'line',
      name: groupLabels[group],
      stack: 'devices',
      step: 'end',
      symbol: 'none',
      lineStyle: { width: 0 },
      areaStyle: { color: GROUP_COLOURS[group][dark ? 'dark' : 'light'], opacity: 0.9 },
      data: samples.map((s) => [s.at, s.counts[group]]),
    })),
  };
  const box = useEChart(option, JSON.stringify([samples, groupLabels, dark, height]));
  return <div ref={box} aria-hidden="true" style={{ height }} className="w-full" />;
}
