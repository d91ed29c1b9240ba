import { lazy, Suspense } from 'react';
import type { BarChartProps } from './charts.tsx';
import { ChartSkeleton } from '../../../components/charts/ChartSkeleton.tsx';

// ECharts is loaded with the first graph shown, so pages without graphs do not pay for it.
const ConsumptionBars = lazy(() =>
  import('./charts.tsx').then((module) => ({ default: module.ConsumptionBars })),
);

export function LazyBars(props: BarChartProps) {
  return (
    <Suspense fallback={<ChartSkeleton height={props.height} />}>
      <ConsumptionBars {...props} />
    </Suspense>
  );
}
