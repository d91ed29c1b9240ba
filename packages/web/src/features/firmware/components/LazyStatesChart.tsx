import { lazy, Suspense } from 'react';
import { ChartSkeleton } from '../../../components/charts/ChartSkeleton.tsx';
import type { StatesChartProps } from './StatesChart.tsx';

// ECharts is loaded with the first graph shown, as the consumption graphs do.
const StatesChart = lazy(() =>
  import('./StatesChart.tsx').then((module) => ({ default: module.StatesChart })),
);

export function LazyStatesChart(props: StatesChartProps) {
  return (
    <Suspense fallback={<ChartSkeleton height={props.height} />}>
      <StatesChart {...props} />
    </Suspense>
  );
}
