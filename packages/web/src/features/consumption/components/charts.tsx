import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { escapeHtml, useDarkScheme, useEChart } from '../../../components/charts/use-echart.ts';

// Only what the graphs draw: bars, their grid, tooltip and legend, drawn as SVG (sharp, small).
echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

const PALETTE = {
  light: { current: '#0369a1', previous: '#cbd5e1', text: '#475569', grid: '#e2e8f0', tooltip: '#ffffff' },
  dark: { current: '#38bdf8', previous: '#475569', text: '#cbd5e1', grid: '#1e293b', tooltip: '#0f172a' },
};

export type BarSeries = { name: string; values: number[]; tone: 'current' | 'previous' };

export type BarChartProps = {
  /** Axis labels, one per bar (or group of bars). */
  categories: string[];
  series: BarSeries[];
  /** Tooltip lines for each category, plain text (escaped here). */
  tooltips: string[][];
  /** The value axis' labels ("12.5"). */
  formatValue: (value: number) => string;
  /** The value axis' name: the volume unit ("m³"). */
  valueName: string;
  /** Text at the end of each bar of the first series ("+8 %"), if any. */
  barLabels?: string[];
  horizontal?: boolean;
  height: number;
};

/**
 * Bars of one or two series (this period and the previous one; or zones side by side). Hidden
 * from screen readers: the same figures are in the table beside it.
 */
export function ConsumptionBars({
  categories,
  series,
  tooltips,
  formatValue,
  valueName,
  barLabels,
  horizontal = false,
  height,
}: BarChartProps) {
  const colors = PALETTE[useDarkScheme() ? 'dark' : 'light'];
  const categoryAxis = {
    type: 'category',
    data: categories,
    inverse: horizontal,
    axisLabel: {
      color: colors.text,
      hideOverlap: true,
      width: horizontal ? Math.min(160, Math.round(window.innerWidth * 0.3)) : undefined,
      overflow: 'truncate',
    },
    axisLine: { lineStyle: { color: colors.grid } },
    axisTick: { show: false },
  };
  const valueAxis = {
    type: 'value',
    name: valueName,
    // Few ticks on the horizontal graph: a phone leaves the bars little room.
    splitNumber: horizontal ? 3 : undefined,
    nameTextStyle: { color: colors.text, align: horizontal ? 'left' : 'right' },
    axisLabel: { color: colors.text, formatter: formatValue },
    splitLine: { lineStyle: { color: colors.grid } },
  };
  const option: EChartsCoreOption = {
    backgroundColor: 'transparent',
    animationDuration: 300,
    textStyle: { fontFamily: 'Inter, ui-sans-serif, system-ui, sans-serif' },
    grid: {
      left: 8,
      right: horizontal ? 56 : 8,
      top: horizontal ? 8 : series.length > 1 ? 40 : 28,
      bottom: 8,
      containLabel: true,
    },
    legend:
      series.length > 1
        ? { top: 0, right: 0, textStyle: { color: colors.text }, itemWidth: 12, itemHeight: 12 }
        : undefined,
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
    xAxis: horizontal ? valueAxis : categoryAxis,
    yAxis: horizontal ? categoryAxis : valueAxis,
    series: series.map((s, index) => ({
      type: 'bar',
      name: s.name,
      data: s.values,
      itemStyle: {
        color: colors[s.tone],
        borderRadius: horizontal ? [0, 4, 4, 0] : [4, 4, 0, 0],
      },
      barGap: '10%',
      barMaxWidth: 40,
      label:
        index === 0 && barLabels
          ? {
              show: true,
              position: horizontal ? 'right' : 'top',
              color: colors.text,
              formatter: ({ dataIndex }: { dataIndex: number }) => barLabels[dataIndex] ?? '',
            }
          : undefined,
    })),
  };
  const box = useEChart(
    option,
    JSON.stringify([categories, series, tooltips, barLabels, horizontal, colors, height, valueName]),
  );
  return <div ref={box} aria-hidden="true" style={{ height }} className="w-full" />;
}
