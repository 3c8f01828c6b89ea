import { formatMoney } from '../../lib/format';

export interface BucketBar {
  label: string;
  /** Pesos as the API sends them; the bar's height is its number, the tooltip shows the exact amount. */
  balance: string;
  count: number;
}

const TICKS = 4;

/** A round step for the value axis: 1, 2 or 5 times a power of ten, so its labels read easily. */
export function niceStep(max: number, ticks = TICKS): number {
  if (max <= 0) return 1;
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].find((factor) => factor * power >= raw)! * power;
}

const axisLabel = (value: number) => formatMoney(value.toFixed(2)).replace(/\.00$/, '');
const LABEL = { position: 'absolute', fontSize: 11, color: '#616161', whiteSpace: 'nowrap', lineHeight: 1 } as const;

/**
 * Balance by aging bucket, drawn with boxes (a chart library cost the home screen more than all its other code). The
 * chart is a picture for the eye; the same figures are in the table beside it, with links, for the keyboard and
 * screen readers. A bar clicked opens the credits of its bucket; hovering one shows its exact amount.
 */
export default function BucketChart({ bars, onOpen }: { bars: BucketBar[]; onOpen: (index: number) => void }) {
  const values = bars.map((bar) => Math.max(0, Number(bar.balance)));
  const highest = Math.max(0, ...values);
  const step = niceStep(highest);
  const top = step * Math.max(1, Math.ceil(highest / step));
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, index) => index * step);
  const percent = (value: number) => `${(value / top) * 100}%`;
  return (
    <div aria-hidden="true" data-testid="bucket-chart" style={{ position: 'relative', height: 260 }}>
      <div style={{ position: 'absolute', left: 88, right: 8, top: 12, bottom: 28 }}>
        {ticks.map((tick) => (
          <div key={tick} style={{ position: 'absolute', left: 0, right: 0, bottom: percent(tick), borderTop: '1px solid #e0e0e0' }}>
            <span style={{ ...LABEL, right: '100%', marginRight: 6, transform: 'translateY(-50%)' }}>{axisLabel(tick)}</span>
          </div>
        ))}
        <div style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'flex-end' }}>
          {bars.map((bar, index) => (
            <div
              key={bar.label}
              title={`${bar.label}: ${formatMoney(bar.balance)} · ${bar.count.toLocaleString('es-MX')} créditos`}
              onClick={() => onOpen(index)}
              style={{
                position: 'relative',
                flex: 1,
                height: '100%',
                display: 'flex',
                alignItems: 'flex-end',
                justifyContent: 'center',
                cursor: 'pointer',
              }}
            >
              <div style={{ width: '60%', height: percent(values[index]!), background: '#1565c0' }} />
              <span style={{ ...LABEL, top: '100%', marginTop: 6, color: '#424242' }}>{bar.label}</span>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
