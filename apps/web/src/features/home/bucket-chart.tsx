import { useEffect, useRef } from 'react';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerParts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { formatMoney } from '../../lib/format';

// Only what this chart draws (tree-shaken): bars, their grid and tooltip, on canvas. Loaded with the dashboard only.
registerParts([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

export interface BucketBar {
  label: string;
  /** Pesos as the API sends them; the bar's height is its number, the tooltip shows the exact amount. */
  balance: string;
  count: number;
}

/**
 * Balance by aging bucket. The chart is a picture for the eye; the same figures are in the table beside it, with
 * links, for the keyboard and screen readers. A bar clicked opens the credits of its bucket.
 */
export default function BucketChart({ bars, onOpen }: { bars: BucketBar[]; onOpen: (index: number) => void }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const chart = init(element.current!, undefined, { renderer: 'canvas' });
    chart.setOption({
      grid: { left: 90, right: 16, top: 16, bottom: 32 },
      tooltip: {
        trigger: 'item',
        formatter: (item: { dataIndex: number }) => {
          const bar = bars[item.dataIndex]!;
          return `${bar.label}<br/>${formatMoney(bar.balance)} · ${bar.count.toLocaleString('es-MX')} créditos`;
        },
      },
      xAxis: { type: 'category', data: bars.map((bar) => bar.label) },
      yAxis: { type: 'value', axisLabel: { formatter: (value: number) => formatMoney(value.toFixed(2)).replace(/\.00$/, '') } },
      series: [{ type: 'bar', data: bars.map((bar) => Number(bar.balance)), itemStyle: { color: '#1565c0' }, cursor: 'pointer' }],
    });
    chart.on('click', (event) => onOpen(event.dataIndex));
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [bars, onOpen]);
  return <div ref={element} aria-hidden="true" style={{ height: 260, width: '100%' }} />;
}
