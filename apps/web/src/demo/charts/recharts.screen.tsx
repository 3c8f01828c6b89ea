import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
/*
 * Recharts' own pre-built bundle rather than its ES modules: those build namespace objects at run time, which would add
 * the bundler's namespace helper to the main chunk that the sign-in page loads.
 */
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts/umd/Recharts.js';
import { DemoPage, Row } from '../ui';
import { EXPENSES, MONTHS, SALES } from './chart-data';

const DATA = MONTHS.map((month, index) => ({ month, ventas: SALES[index], gastos: EXPENSES[index] }));

export default function RechartsScreen() {
  return (
    <DemoPage title="Gráficas con Recharts">
      <Row>
        <Card variant="outlined" sx={{ flex: '1 1 420px' }}>
          <CardHeader title="Ventas y gastos (miles de pesos)" />
          <ResponsiveContainer width="100%" height={300}>
            <AreaChart data={DATA} margin={{ left: 8, right: 16 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="month" />
              <YAxis />
              <Tooltip />
              <Legend />
              <Area type="monotone" dataKey="ventas" stroke="#1e88e5" fill="#90caf9" />
              <Area type="monotone" dataKey="gastos" stroke="#5e35b1" fill="#d1c4e9" />
            </AreaChart>
          </ResponsiveContainer>
        </Card>
        <Card variant="outlined" sx={{ flex: '1 1 420px' }}>
          <CardHeader title="Margen mensual" />
          <ResponsiveContainer width="100%" height={300}>
            <BarChart data={DATA.map((row) => ({ month: row.month, margen: (row.ventas ?? 0) - (row.gastos ?? 0) }))}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="month" />
              <YAxis />
              <Tooltip />
              <Bar dataKey="margen" fill="#1e88e5" />
            </BarChart>
          </ResponsiveContainer>
        </Card>
      </Row>
    </DemoPage>
  );
}
