import { z } from 'zod';

/** Pesos as typed ("10000", "10000.5"), validated and answered with exactly two decimals ("10000.50"). */
export const moneyField = (label: string, example: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, `${label}: escribe un importe en pesos, por ejemplo ${example} o ${example}.50.`)
    .transform((value) => (value.includes('.') ? value.padEnd(value.indexOf('.') + 3, '0') : `${value}.00`));
