import type { ComponentType } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { DemoPage, money } from '../ui';

/** Four pricing pages of the template: the same plans drawn in four layouts. */
const PLANS = [
  { name: 'Básico', monthly: 0, features: ['1 usuario', '5 proyectos', 'Soporte por correo'] },
  { name: 'Profesional', monthly: 299, features: ['5 usuarios', 'Proyectos ilimitados', 'Soporte prioritario'], featured: true },
  { name: 'Empresa', monthly: 899, features: ['Usuarios ilimitados', 'Proyectos ilimitados', 'Gerente de cuenta'] },
];

interface Layout {
  yearly: boolean;
  dense: boolean;
  highlight: 'chip' | 'outline';
}

const price = (monthly: number, yearly: boolean) =>
  monthly === 0 ? 'Gratis' : yearly ? `${money(monthly * 10)} / año` : `${money(monthly)} / mes`;

const pricing = ({ yearly, dense, highlight }: Layout): ComponentType =>
  function PricingScreen() {
    return (
      <DemoPage>
        <Typography color="text.secondary">
          {yearly ? 'Pago anual: dos meses de regalo.' : 'Pago mensual, cancela cuando quieras.'}
        </Typography>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', md: dense ? 'repeat(3, 1fr)' : 'repeat(auto-fit, minmax(260px, 1fr))' },
          }}
        >
          {PLANS.map((plan) => (
            <Card
              key={plan.name}
              variant="outlined"
              sx={{
                borderColor: plan.featured && highlight === 'outline' ? 'primary.main' : undefined,
                borderWidth: plan.featured ? 2 : 1,
              }}
            >
              <CardContent>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
                  <Typography variant="h6">{plan.name}</Typography>
                  {plan.featured && highlight === 'chip' && <Chip size="small" color="primary" label="Más popular" />}
                </Box>
                <Typography variant={dense ? 'h6' : 'h4'} sx={{ my: 1 }}>
                  {price(plan.monthly, yearly)}
                </Typography>
                <List dense={dense}>
                  {plan.features.map((feature) => (
                    <ListItem key={feature} disableGutters>
                      ✓ {feature}
                    </ListItem>
                  ))}
                </List>
              </CardContent>
              <CardActions>
                <Button fullWidth variant={plan.featured ? 'contained' : 'outlined'}>
                  Elegir {plan.name}
                </Button>
              </CardActions>
            </Card>
          ))}
        </Box>
      </DemoPage>
    );
  };

export const screens = {
  1: pricing({ yearly: false, dense: false, highlight: 'chip' }),
  2: pricing({ yearly: true, dense: false, highlight: 'outline' }),
  3: pricing({ yearly: false, dense: true, highlight: 'outline' }),
  4: pricing({ yearly: true, dense: true, highlight: 'chip' }),
};
