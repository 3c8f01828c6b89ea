/** One small data set drawn by the three chart libraries the template's routes name. */
export const MONTHS = ['Ene', 'Feb', 'Mar', 'Abr', 'May', 'Jun', 'Jul', 'Ago', 'Sep', 'Oct', 'Nov', 'Dic'];
export const SALES = [42, 38, 51, 47, 60, 58, 66, 71, 64, 69, 75, 82];
export const EXPENSES = [30, 31, 35, 33, 40, 42, 44, 47, 45, 46, 50, 53];
export const SHARE = [
  { name: 'Audio', value: 35 },
  { name: 'Moda', value: 25 },
  { name: 'Celulares', value: 28 },
  { name: 'Accesorios', value: 12 },
];
