import { useEffect, useRef } from 'react';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import ApexCharts, { type ApexOptions } from 'apexcharts';
import { DemoPage, Row } from '../ui';
import { MONTHS, SALES, SHARE } from './chart-data';

function ApexChart({ title, options }: { title: string; options: ApexOptions }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const chart = new ApexCharts(element.current!, options);
    void chart.render();
    return () => chart.destroy();
  }, [options]);
  return (
    <Card variant="outlined" sx={{ flex: '1 1 420px' }}>
      <CardHeader title={title} />
      <div ref={element} role="img" aria-label={title} />
    </Card>
  );
}

const COLUMNS: ApexOptions = {
  chart: { type: 'bar', height: 300, toolbar: { show: false } },
  series: [{ name: 'Ventas', data: SALES }],
  xaxis: { categories: MONTHS },
  colors: ['#1e88e5'],
};
const DONUT: ApexOptions = {
  chart: { type: 'donut', height: 300 },
  series: SHARE.map((slice) => slice.value),
  labels: SHARE.map((slice) => slice.name),
};

export default function ApexChartsScreen() {
  return (
    <DemoPage title="Gráficas con ApexCharts">
      <Row>
        <ApexChart title="Ventas por mes (miles de pesos)" options={COLUMNS} />
        <ApexChart title="Ventas por categoría (%)" options={DONUT} />
      </Row>
    </DemoPage>
  );
}
