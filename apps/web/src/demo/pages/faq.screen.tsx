import type { ComponentType } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { DemoPage } from '../ui';

/** The template's two FAQ pages: the same questions as accordions or as cards. */
const FAQ = [
  ['¿Cómo creo una cuenta?', 'Desde la página de registro, con tu correo y una contraseña.'],
  ['¿Puedo cambiar de plan?', 'Sí, en cualquier momento; el cambio aplica en el siguiente periodo.'],
  ['¿Qué formas de pago aceptan?', 'Tarjeta de crédito, débito y transferencia.'],
  ['¿Cómo cancelo mi suscripción?', 'Desde tu perfil, en la sección de facturación.'],
] as const;

const faq = (asCards: boolean): ComponentType =>
  function FaqScreen() {
    return (
      <DemoPage>
        {asCards ? (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            {FAQ.map(([question, answer]) => (
              <Card key={question} variant="outlined">
                <CardContent>
                  <Typography variant="h6" component="h2">
                    {question}
                  </Typography>
                  <Typography color="text.secondary">{answer}</Typography>
                </CardContent>
              </Card>
            ))}
          </Box>
        ) : (
          FAQ.map(([question, answer]) => (
            <Accordion key={question} variant="outlined">
              <AccordionSummary expandIcon={<ExpandMore />}>{question}</AccordionSummary>
              <AccordionDetails>{answer}</AccordionDetails>
            </Accordion>
          ))
        )}
      </DemoPage>
    );
  };

export const screens = { 1: faq(false), 2: faq(true) };
