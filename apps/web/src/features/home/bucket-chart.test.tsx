import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import BucketChart, { niceStep } from './bucket-chart';

const bars = [
  { label: 'Al corriente', balance: '900000.00', count: 50 },
  { label: '1-30', balance: '60000.00', count: 6 },
  { label: '90+', balance: '0.00', count: 0 },
];

describe('BucketChart', () => {
  it('steps its axis by 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(900_000)).toBe(500_000);
    expect(niceStep(60_000)).toBe(20_000);
    expect(niceStep(7)).toBe(2);
    expect(niceStep(0)).toBe(1);
  });

  it('draws each bar in proportion to the axis top, names its exact amount, and opens its bucket when clicked', () => {
    const onOpen = vi.fn();
    render(<BucketChart bars={bars} onOpen={onOpen} />);
    // 900,000 on an axis of 0–1,000,000 (steps of 500,000): 90 % of the plot's height.
    const first = screen.getByTitle('Al corriente: $900,000.00 · 50 créditos');
    expect((first.firstElementChild as HTMLElement).style.height).toBe('90%');
    expect((screen.getByTitle('1-30: $60,000.00 · 6 créditos').firstElementChild as HTMLElement).style.height).toBe('6%');
    expect((screen.getByTitle('90+: $0.00 · 0 créditos').firstElementChild as HTMLElement).style.height).toBe('0%');
    expect(screen.getByText('$1,000,000')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('1-30: $60,000.00 · 6 créditos'));
    expect(onOpen).toHaveBeenCalledWith(1);
  });
});
