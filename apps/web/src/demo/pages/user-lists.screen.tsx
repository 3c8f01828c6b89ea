import type { ComponentType } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { PEOPLE } from '../fake-api/data';
import { DemoPage, initials, useDemoQuery } from '../ui';

/** The template's four user-list pages: the fake API's users drawn as cards, a list, a grid or a compact list. */
type Person = (typeof PEOPLE)[number];
type Look = 'cards' | 'list' | 'grid' | 'compact';

function PersonCard({ person, wide }: { person: Person; wide: boolean }) {
  return (
    <Card variant="outlined">
      <CardContent
        sx={{ display: 'flex', flexDirection: wide ? 'row' : 'column', alignItems: 'center', gap: 2, textAlign: wide ? 'left' : 'center' }}
      >
        <Avatar sx={{ bgcolor: 'primary.main', width: 56, height: 56 }}>{initials(person.name)}</Avatar>
        <Box>
          <Typography sx={{ fontWeight: 600 }}>{person.name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {person.role} · {person.city}
          </Typography>
          <Typography variant="body2">{person.email}</Typography>
        </Box>
      </CardContent>
    </Card>
  );
}

const userList = (look: Look): ComponentType =>
  function UserListScreen() {
    const { data = [] } = useDemoQuery<Person[]>('/api/user/all');
    if (look === 'list' || look === 'compact') {
      return (
        <DemoPage>
          <Paper variant="outlined">
            <List dense={look === 'compact'} aria-label="Usuarios">
              {data.map((person) => (
                <ListItem key={person.id} divider>
                  {look === 'list' && (
                    <ListItemAvatar>
                      <Avatar sx={{ bgcolor: 'secondary.main' }}>{initials(person.name)}</Avatar>
                    </ListItemAvatar>
                  )}
                  <ListItemText primary={person.name} secondary={`${person.email} · ${person.role}`} />
                </ListItem>
              ))}
            </List>
          </Paper>
        </DemoPage>
      );
    }
    return (
      <DemoPage>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: look === 'cards' ? 'repeat(auto-fill, minmax(220px, 1fr))' : { xs: '1fr', md: '1fr 1fr' },
          }}
        >
          {data.map((person) => (
            <PersonCard key={person.id} person={person} wide={look === 'grid'} />
          ))}
        </Box>
      </DemoPage>
    );
  };

export const screens = { 1: userList('cards'), 2: userList('list'), 3: userList('grid'), 4: userList('compact') };
