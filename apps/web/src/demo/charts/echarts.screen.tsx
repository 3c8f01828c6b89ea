import { useEffect, useRef } from 'react';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
// The pre-built "simple" bundle (line, bar, pie): lighter than the modular build, and self-contained (see recharts.screen).
import { init, type EChartsCoreOption } from 'echarts/dist/echarts.simple.min.js';
import { DemoPage, Row } from '../ui';
import { EXPENSES, MONTHS, SALES, SHARE } from './chart-data';

function EChart({ title, option }: { title: string; option: EChartsCoreOption }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const chart = init(element.current!);
    chart.setOption(option);
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [option]);
  return (
    <Card variant="outlined" sx={{ flex: '1 1 420px' }}>
      <CardHeader title={title} />
      <div ref={element} role="img" aria-label={title} style={{ height: 300 }} />
    </Card>
  );
}

const LINE: EChartsCoreOption = {
  tooltip: { trigger: 'axis' },
  legend: { data: ['Ventas', 'Gastos'] },
  xAxis: { type: 'category', data: MONTHS },
  yAxis: { type: 'value' },
  series: [
    { name: 'Ventas', type: 'line', smooth: true, data: SALES },
    { name: 'Gastos', type: 'bar', data: EXPENSES },
  ],
};
const PIE: EChartsCoreOption = { tooltip: { trigger: 'item' }, series: [{ type: 'pie', radius: ['40%', '70%'], data: SHARE }] };

export default function EchartsScreen() {
  return (
    <DemoPage title="Gráficas con ECharts">
      <Row>
        <EChart title="Ventas y gastos (miles de pesos)" option={LINE} />
        <EChart title="Ventas por categoría (%)" option={PIE} />
      </Row>
    </DemoPage>
  );
}
